// The site's code: the entry module and the chunks it imports, which the page
// names in <meta name="site-code"> (entry first).
import { appendLink } from "./links";

let started = false;

export function startSiteCode(): void {
  if (started) return;
  started = true;
  const [entry, ...chunks] =
    document.querySelector<HTMLMetaElement>('meta[name="site-code"]')?.content.split(" ") ?? [];
  if (!entry) return;
  const script = document.createElement("script");
  script.type = "module";
  script.src = entry;
  document.head.append(script);
  // The chunks are fetched alongside the entry, not a round trip later once it is parsed.
  for (const href of chunks) appendLink({ rel: "modulepreload", href });
}
