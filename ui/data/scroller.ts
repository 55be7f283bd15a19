// react-scroll is CommonJS: a static import gets its exports right, a dynamic
// import() of it does not. This module is the chunk sections.ts loads. Only
// the scroller itself: react-scroll's index also pulls in its React
// components and react-dom, which the scroller does not use.
export { default as scroller } from "react-scroll/modules/mixins/scroller";
