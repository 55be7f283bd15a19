import { createContext, useContext } from "react";
import type { PageData } from "../types";

export const PageDataContext = createContext<PageData | null>(null);

export function usePageData(): PageData {
  const data = useContext(PageDataContext);
  if (data === null) {
    throw new Error("usePageData() outside <PageDataContext.Provider>");
  }
  return data;
}
