// react-scroll is CommonJS: a static import gets its named exports right, a
// dynamic import() of it does not. This module is the chunk sections.ts loads.
export { scroller } from "react-scroll";
