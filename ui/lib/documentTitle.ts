// The document's <title> in the formats of site.json, which the server uses too; the server
// titles the first page, these the pages after client-side navigation.
import { format } from "../i18n/messages";
import site from "../site.json";

/** A page's title: the landing page leads with the company, the others with the page. */
export function pageTitle(isLanding: boolean, page: string, company: string): string {
  return format(isLanding ? site.titles.landing : site.titles.page, { page, company });
}

/** A card's page: the card, then its list page, then the company. */
export function cardTitle(card: string, page: string, company: string): string {
  return format(site.titles.card, { card, page, company });
}
