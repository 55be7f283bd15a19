// The site's routes, once: the router (App.tsx) and the client's page loader
// (pages.client.tsx) both read this table.

export type PageKey = "landing" | "projects" | "collabrations" | "notFound";

export const ROUTES: ReadonlyArray<{ path: string; page: PageKey }> = [
  { path: "/", page: "landing" },
  { path: "/projects", page: "projects" },
  { path: "/Collabrations", page: "collabrations" },
];

/** The page a path shows, matched as the router does (paths are case-sensitive). */
export function pageFor(pathname: string): PageKey {
  return ROUTES.find((route) => route.path === pathname)?.page ?? "notFound";
}
