// The studio's "Sign in with Google" (Firebase mode): Firebase Authentication's popup gives an
// ID token, which the sign-in page's own form posts to the server, which makes the session cookie.
// Without this script the button stays hidden and email and password still work.
import { type FirebaseOptions, initializeApp } from "firebase/app";
import {
  browserPopupRedirectResolver,
  connectAuthEmulator,
  GoogleAuthProvider,
  inMemoryPersistence,
  initializeAuth,
  signInWithPopup,
} from "firebase/auth";

// emulator: "http://host:port" when the server uses the Auth emulator.
type FirebaseConfig = FirebaseOptions & { emulator: string | null };

function start(): void {
  const button = document.querySelector<HTMLButtonElement>("#google-sign-in");
  const form = document.querySelector<HTMLFormElement>("#google-token");
  const token = form?.querySelector<HTMLInputElement>("input[name=id_token]");
  const failed = document.querySelector<HTMLElement>("#google-failed");
  if (!button || !form || !token || !failed) return;

  const { emulator, ...options } = JSON.parse(button.dataset.firebase ?? "") as FirebaseConfig;
  // In memory only: the session cookie is what keeps staff signed in, not the browser's Firebase user.
  const auth = initializeAuth(initializeApp(options, "studio"), {
    persistence: inMemoryPersistence,
    popupRedirectResolver: browserPopupRedirectResolver,
  });
  if (emulator) connectAuthEmulator(auth, emulator, { disableWarnings: true });
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });

  button.hidden = false;
  button.addEventListener("click", () => {
    button.disabled = true;
    failed.hidden = true;
    signInWithPopup(auth, provider)
      .then((credential) => credential.user.getIdToken())
      .then((idToken) => {
        token.value = idToken;
        form.submit();
      })
      .catch((error: unknown) => {
        console.error("Google sign-in did not finish", error);
        failed.hidden = false;
        button.disabled = false;
      });
  });
}

start();
