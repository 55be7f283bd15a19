import { onCLS, onINP, onLCP, type Metric } from "web-vitals";

/**
 * Sends LCP, INP and CLS to `endpoint` (the server's POST /vitals,
 * server/handlers/vitals.py), each once web-vitals settles it, as measured on `path`.
 * This module imports nothing of the site's own, so its chunk shares no code
 * with the entry's and adds no script to the page's first load.
 */
export function reportWebVitals(endpoint: string, path: string): void {
  const send = ({ name, value, rating }: Metric): void => {
    // A beacon outlives the page, which is when INP and CLS are reported.
    // Sent as a string, so text/plain: a simple request, no preflight.
    navigator.sendBeacon(endpoint, JSON.stringify({ name, value, rating, path }));
  };
  onCLS(send);
  onINP(send);
  onLCP(send);
}
