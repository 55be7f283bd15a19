// One catalogue per language (en.json, ...), gathered by build.py into @stone/catalogues.
import catalogues from "@stone/catalogues";
import site from "../site.json";

export type Locale = keyof typeof site.languages;
export type Messages = (typeof catalogues)[string];

export const CATALOGUES = catalogues as Record<Locale, Messages>;

/** A message with its {placeholders} filled in. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
