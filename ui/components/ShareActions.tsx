import { useState } from "react";
import { useLocale } from "../hooks/useLocale";

/** Share a card (`name` at its public address `url`): the share sheet where the browser has one,
 *  else Copy link; and WhatsApp, a link. Which button shows is known only in the browser, so the
 *  server's HTML (and until `hydrated`, hydration) has neither, only their room. */
export function ShareActions({ name, url, hydrated }: { name: string; url: string; hydrated: boolean }) {
  const text = useLocale().messages.lists;
  const canShare = hydrated ? typeof navigator.share === "function" : null;
  // The last copy's outcome and its address: a new card has not been copied yet.
  const [lastCopy, setLastCopy] = useState<{ url: string; status: string } | null>(null);

  function share(): void {
    // The visitor closing the share sheet rejects the promise: nothing to do.
    navigator.share({ title: name, text: name, url }).catch(() => undefined);
  }

  function copy(): void {
    navigator.clipboard.writeText(url).then(
      () => setLastCopy({ url, status: text.linkCopied }),
      () => setLastCopy({ url, status: text.copyFailed }),
    );
  }

  const whatsApp = `https://wa.me/?text=${encodeURIComponent(`${name} ${url}`)}`;
  return (
    <div className="share" role="group" aria-label={text.shareLabel}>
      <a className="button button--ghost-dark" href={whatsApp} target="_blank" rel="noopener noreferrer">
        {text.whatsApp}
      </a>
      {canShare === null ? (
        // Kept until the browser knows which, so the dialog keeps its size from its first paint.
        <span className="button button--ghost-dark share__pending" aria-hidden="true">
          {text.copyLink}
        </span>
      ) : (
        <button type="button" className="button button--ghost-dark" onClick={canShare ? share : copy}>
          {canShare ? text.share : text.copyLink}
        </button>
      )}
      <p className="share__status" role="status">
        {lastCopy?.url === url && lastCopy.status}
      </p>
    </div>
  );
}
