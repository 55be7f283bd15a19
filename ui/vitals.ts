import { onCLS, onINP, onLCP, type Metric } from "web-vitals";

/** Sends LCP, INP and CLS, measured on `path`, to `endpoint` (POST /vitals) as web-vitals settles
 *  each. Nothing of the site's own is imported: its chunk adds no script to the first load. */
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
