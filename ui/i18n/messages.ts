// One message catalogue per language (en.json, ar.json); the server reads the
// same files for page titles. The type checker holds the Arabic catalogue to
// the English one's shape, so no key can be missing.
import ar from "./ar.json";
import en from "./en.json";

export type Messages = typeof en;
export type Locale = "en" | "ar";

const ARABIC: Messages = ar;

export const CATALOGUES: Record<Locale, Messages> = { en, ar: ARABIC };

/** A message with its {placeholders} filled in. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
