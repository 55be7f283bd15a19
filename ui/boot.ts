// The one script a page names, and the only one fetched before its first
// paint. It starts the site's code once the server's HTML is on screen, so on
// a slow network those bytes never compete with the first paint or the
// largest image; the page is readable and its links work meanwhile.
const code = document.querySelector<HTMLMetaElement>('meta[name="site-code"]')?.content.split(" ");

function startSiteCode(entry: string, chunks: string[]): void {
  // The chunks the entry imports, fetched alongside it rather than after it.
  for (const href of chunks) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
  void import(entry);
}

if (code?.[0]) {
  const [entry, ...chunks] = code;
  // A frame callback runs just before a paint: the second one comes after the
  // first paint is on screen.
  requestAnimationFrame(() => requestAnimationFrame(() => startSiteCode(entry, chunks)));
}
