import { onCLS, onINP, onLCP, type Metric } from "web-vitals";

// Development aid until a collection endpoint exists: the metrics go to the
// console at debug level, where they cost nothing and show in devtools.
function logMetric(metric: Metric): void {
  console.debug(`[web-vitals] ${metric.name}`, Math.round(metric.value * 1000) / 1000);
}

export function reportWebVitals(): void {
  onCLS(logMetric);
  onINP(logMetric);
  onLCP(logMetric);
}
