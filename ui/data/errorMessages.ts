import type { CollectionName } from "../types";

// The spec's exact console texts; the server logs the same prefixes.
export const FETCH_ERROR_PREFIX: Record<CollectionName, string> = {
  projects: "Error fetching projects:",
  collabrations: "Error fetching collabrations:",
  slider: "Error fetching slider images:",
};
