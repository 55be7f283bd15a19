/** Whether the visitor asked for reduced motion; never on the server, which has no visitor. */
export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
