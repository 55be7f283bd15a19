// The site's code, evaluated in two tasks rather than one that would hold a
// slow phone's main thread: React DOM here, then the site itself (router,
// pages, components; ./hydrateSite) in a task of its own. ui/boot/boot.ts starts
// this after the first paint and fetches both parts at once.
import "./styles/site.css";
import "react-dom/client";

setTimeout(() => {
  void import("./hydrateSite").then(({ hydrateSite }) => hydrateSite());
}, 0);
