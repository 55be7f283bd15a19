import { createContext, useContext } from "react";
import type { PageData } from "../types";

// Both entries provide it around the whole tree.
export const PageDataContext = createContext<PageData>(null!);

export const usePageData = (): PageData => useContext(PageDataContext);
