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
const NAMES = Object.keys(FILTERS) as FilterName[];

/** The filters of a query: the first known value of each, as the server reads them
 *  (server/site/pages.py, SitePage.filtered), so both render the same page. */
export function filtersOf(search: string): Filters {
  const query = new URLSearchParams(search);
  const chosen = NAMES.map((name) => [name, query.getAll(name).find((v) => FILTERS[name].includes(v))]);
  return Object.fromEntries(chosen.filter(([, value]) => value)) as Filters;
}

/** The list's address with these filters, in the server's order (one address per choice). */
export function filteredPath(listPath: string, filters: Filters): string {
  const chosen = NAMES.flatMap((name) => (filters[name] ? [[name, filters[name]]] : []));
  const search = new URLSearchParams(chosen).toString();
  return search ? `${listPath}?${search}` : listPath;
}

/** A stone's family, colour or finishes. */
export function valuesOf(stone: Stone, name: FilterName): string[] {
  const values = name === "finish" ? stone.finishes : stone[name];
  return values === undefined ? [] : ([] as string[]).concat(values);
}

/** A family's, colour's or finish's name in the page's language. */
export function label(text: Messages["stones"], name: FilterName, value: string): string {
  return (text[name] as Record<string, string | undefined>)[value] ?? value;
}

/** "Granite · Red": the stone's family and colour. */
export function kind(stone: Stone, text: Messages["stones"]): string {
  const names = (["family", "colour"] as const).flatMap((name) =>
    valuesOf(stone, name).map((v) => label(text, name, v)),
  );
  return names.join(" · ");
}

/** A figure as the language writes numbers (2,480 in English, 2 480 in French). */
export function formatNumber(value: number, text: Messages["stones"]): string {
  const [whole, fraction] = String(value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, text.group);
  return fraction ? `${grouped}${text.decimal}${fraction}` : grouped;
}
