export function appendToHead<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]>,
): void {
  document.head.append(Object.assign(document.createElement(tag), properties));
}
