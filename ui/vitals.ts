import { onCLS, onINP, onLCP, type Metric } from "web-vitals";
import { routePattern } from "./split/routes";

/** The report the server's POST /vitals accepts (server/vitals.py). */
interface VitalsReport {
  name: Metric["name"];
  value: number;
  rating: Metric["rating"];
  path: string;
}

/** Sends LCP, INP and CLS to `endpoint`, each once web-vitals settles it. */
export function reportWebVitals(endpoint: string): void {
  // The route the visitor landed on: LCP belongs to it, and INP and CLS are
  // settled when the page is hidden, whatever route it shows by then. A
  // card's page counts as its route (/projects/{item_id}), not one per card.
  const path = routePattern(window.location.pathname);
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
