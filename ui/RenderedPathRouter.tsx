import { type ReactNode, useEffect, useLayoutEffect, useState } from "react";
import { Router, UNSAFE_createBrowserHistory as createBrowserHistory } from "react-router-dom";
import { renderedPath } from "./boot/handover";

/**
 * BrowserRouter that hydrates the path the server's HTML shows, then follows
 * the address. They differ when the visitor closed a card before the site's
 * code ran (boot/cardDialog.ts moved the address to the list): hydrating the
 * list over the card's HTML would not match it.
 */
export function RenderedPathRouter({ children }: { children: ReactNode }) {
  // As BrowserRouter makes its history.
  const [history] = useState(() => createBrowserHistory({ v5Compat: true }));
  const [state, setState] = useState(() => ({
    action: history.action,
    location: { ...history.location, pathname: renderedPath() },
  }));
  useLayoutEffect(() => history.listen(setState), [history]);
  // Once hydrated: where the visitor is now.
  useEffect(() => {
    if (history.location.pathname !== renderedPath()) {
      // A second render on purpose: the first must match the server's HTML.
      // eslint-disable-next-line react-hooks/set-state-in-effect -- as said above
      setState({ action: history.action, location: history.location });
    }
  }, [history]);
  return (
    <Router location={state.location} navigationType={state.action} navigator={history}>
      {children}
    </Router>
  );
}
