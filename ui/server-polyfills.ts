// Web APIs that React, react-dom/server and the router touch at load time but bare V8 lacks.
import "fast-text-encoding";
import "core-js/actual/url";
import "core-js/actual/url-search-params";

// react-dom/server makes a MessageChannel as it loads; only its streaming
// renderer posts on it, from port2 to port1, which a setTimeout does as well.
if (typeof globalThis.MessageChannel !== "function") {
  (globalThis as Record<string, unknown>).MessageChannel = class {
    port1: { onmessage?: (event: { data: unknown }) => void } = {};
    port2 = { postMessage: (data: unknown) => setTimeout(() => this.port1.onmessage?.({ data }), 0) };
  };
}
