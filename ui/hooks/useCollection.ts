import { useEffect, useState } from "react";
import type { CollectionItems, Named } from "../types";
import { usePageData } from "./usePageData";
import site from "../site.json";

// Collections already fetched in this tab, seeded from the server's inlined data.
const loaded: Partial<CollectionItems> = {};

/** The items of one collection: the server's inlined data, or (after client-side
 *  navigation) empty until /api/content answers; with `needed` false, never fetched. */
export function useCollection<N extends keyof CollectionItems>(
  name: N,
  needed = true,
): CollectionItems[N] {
  const inlined = usePageData().content[name];
  const [items, setItems] = useState<CollectionItems[N]>(
    () => inlined ?? loaded[name] ?? ([] as CollectionItems[N]),
  );

  useEffect(() => {
    if (inlined !== undefined) {
      loaded[name] = inlined;
      return;
    }
    if (loaded[name] !== undefined || !needed) return;
    void fetch(`/api/content/${name}`, { headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status} from /api/content/${name}`);
        return response.json() as Promise<CollectionItems[N]>;
      })
      .then(
        (fetched) => {
          loaded[name] = fetched;
          setItems(fetched);
        },
        (error: unknown) => {
          // The spec's exact console text, from site.json: the server logs the same prefix.
          console.error(site.collections[name].fetchError, error);
        },
      );
  }, [name, inlined, needed]);

  return items;
}

/** The names of a collection's items, for links: as the server inlined them for a page that
 *  only links them, else from the collection itself (fetched when not inlined). */
export function useNames(name: "projects" | "collabrations" | "stones"): Named[] {
  const named = usePageData().names?.[name];
  const items = useCollection(name, named === undefined);
  return named ?? items;
}
