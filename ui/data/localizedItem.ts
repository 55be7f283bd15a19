import type { Locale } from "../i18n/messages";
import type { CardItem, Named } from "../types";

/** A card's name and description in `locale` (name_fr, description_ar...),
 *  falling back to English (which has no name_en) where the translation is missing. */
export function cardText(item: CardItem, locale: Locale): { name: string; description: string } {
  return {
    name: item[`name_${locale}`] || item.name,
    description: item[`description_${locale}`] || item.description,
  };
}

export function nameIn(item: Named, locale: Locale): string {
  return item[`name_${locale}`] || item.name;
}
