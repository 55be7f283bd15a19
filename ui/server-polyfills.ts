// Web APIs that React, react-dom/server and the router touch at load time but
// bare V8 does not have. Well-kept polyfills where one exists.
import "fast-text-encoding";
import "core-js/actual/url";
import "core-js/actual/url-search-params";
import queueMicrotask from "queue-microtask";

const scope = globalThis as Record<string, unknown>;

if (typeof scope.queueMicrotask !== "function") {
  scope.queueMicrotask = queueMicrotask;
}

// The scheduler only uses MessageChannel to post a task to itself; a
// setTimeout-based port keeps those semantics. mini-racer provides setTimeout.
if (typeof scope.MessageChannel !== "function") {
  class TimeoutMessagePort {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    other: TimeoutMessagePort | null = null;
    postMessage(data: unknown): void {
      const target = this.other;
      setTimeout(() => target?.onmessage?.({ data }), 0);
    }
  }
  scope.MessageChannel = class {
    port1 = new TimeoutMessagePort();
    port2 = new TimeoutMessagePort();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  };
}
