// bundles/catalogues.json, which build.py writes: every language's catalogue but the studio's words.
import type en from "./en.json";

declare const catalogues: Record<string, Omit<typeof en, "studio">>;
export default catalogues;
