// The stones' filters and figures, from site.json (the server reads the same lists).
import type { Messages } from "../i18n/messages";
import site from "../site.json";
import type { Figure, Stone } from "../types";

export type FilterName = keyof typeof site.stones.filters;
export const FILTERS = site.stones.filters as Record<FilterName, string[]>;
export const FIGURES = site.stones.figures as ReadonlyArray<{
  field: Figure;
  unit: string;
  standard: string;
}>;

export type Filters = Partial<Record<FilterName, string>>;

/** The filters of a query: the first known value of each, as the server reads them
 *  (server/site_map.py, SitePage.filtered), so both render the same page. */
export function filtersOf(search: string): Filters {
  const query = new URLSearchParams(search);
  const filters: Filters = {};
  for (const name of Object.keys(FILTERS) as FilterName[]) {
    const value = query.getAll(name).find((candidate) => FILTERS[name].includes(candidate));
    if (value !== undefined) filters[name] = value;
  }
  return filters;
}

/** The list's address with these filters, in the server's order (one address per choice). */
export function filteredPath(listPath: string, filters: Filters): string {
  const query = new URLSearchParams();
  for (const name of Object.keys(FILTERS) as FilterName[]) {
    const value = filters[name];
    if (value) query.set(name, value);
  }
  const search = query.toString();
  return search ? `${listPath}?${search}` : listPath;
}

/** A stone's value of a filter: its family, its colour, its finishes. */
export function valuesOf(stone: Stone, name: FilterName): string[] {
  if (name === "finish") return stone.finishes ?? [];
  const value = stone[name];
  return value ? [value] : [];
}

export function matches(stone: Stone, filters: Filters): boolean {
  return (Object.keys(filters) as FilterName[]).every((name) =>
    valuesOf(stone, name).includes(filters[name]!),
  );
}

/** A figure as the language writes numbers (2,480 in English, 2 480 in French). */
export function formatNumber(value: number, text: Messages["stones"]): string {
  const [whole, fraction] = String(value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, text.group);
  return fraction ? `${grouped}${text.decimal}${fraction}` : grouped;
}

/** A family's, colour's or finish's name in the page's language. */
export function label(text: Messages["stones"], name: FilterName, value: string): string {
  return (text[name] as Record<string, string | undefined>)[value] ?? value;
}
