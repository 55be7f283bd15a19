/** A <link> in the head, for a file the page's HTML does not name. */
export function appendLink(attributes: Partial<HTMLLinkElement>): void {
  document.head.append(Object.assign(document.createElement("link"), attributes));
}
