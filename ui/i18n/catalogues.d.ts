// The catalogue of every language in site.json, gathered by build.py
// (bundles/catalogues.json, without the studio's words): a new language is
// its catalogue file and its entry in the table, no code.
import type en from "./en.json";

declare const catalogues: Record<string, Omit<typeof en, "studio">>;
export default catalogues;
