import site from "../site.json";
import type { CollectionName } from "../types";

// The spec's exact console texts, from site.json: the server logs the same prefixes.
const COLLECTIONS: Record<CollectionName, { fetchError: string }> = site.collections;

export const FETCH_ERROR_PREFIX = Object.fromEntries(
  Object.entries(COLLECTIONS).map(([name, { fetchError }]) => [name, fetchError]),
) as Record<CollectionName, string>;
