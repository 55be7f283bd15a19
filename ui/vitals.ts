import { onCLS, onINP, onLCP, type Metric } from "web-vitals";

/** The report the server's POST /vitals accepts (server/vitals.py). */
interface VitalsReport {
  name: Metric["name"];
  value: number;
  rating: Metric["rating"];
  path: string;
}

/**
 * Sends LCP, INP and CLS to `endpoint`, each once web-vitals settles it, as
 * measured on `path`: the route the visitor landed on (entry-client.tsx).
 * This module imports nothing of the site's own, so its chunk shares no code
 * with the entry's and adds no script to the page's first load.
 */
export function reportWebVitals(endpoint: string, path: string): void {
  const send = (metric: Metric): void => {
    const report: VitalsReport = {
      name: metric.name,
      value: metric.value,
      rating: metric.rating,
      path,
    };
    // A beacon outlives the page, which is when INP and CLS are reported.
    // Sent as a string, so text/plain: a simple request, no preflight.
    navigator.sendBeacon(endpoint, JSON.stringify(report));
  };
  onCLS(send);
  onINP(send);
  onLCP(send);
}
