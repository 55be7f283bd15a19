// The chunk sections.ts loads on intent: react-scroll's scroller alone. Its
// index would also bring react-scroll's React components and react-dom, which
// the scroller does not use (and a chunk shared with the entry for them).
import scrollerModule from "react-scroll/modules/mixins/scroller";

// The file is CommonJS with the scroller as `exports.default`. In a package of
// "type": "module" esbuild imports a CommonJS default as Node does, as
// module.exports itself: the scroller is one `default` further in.
export const scroller = (scrollerModule as unknown as { default: typeof scrollerModule }).default;
