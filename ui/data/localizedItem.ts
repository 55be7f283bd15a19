import type { Locale } from "../i18n/messages";
import { DEFAULT_LOCALE } from "../i18n/locale";
import type { CardItem } from "../types";

/** A card's name and description in `locale` (name_fr, description_ar...),
 *  falling back to English where the translation is missing. */
export function cardText(item: CardItem, locale: Locale): { name: string; description: string } {
  if (locale === DEFAULT_LOCALE) return { name: item.name, description: item.description };
  return {
    name: item[`name_${locale}`] || item.name,
    description: item[`description_${locale}`] || item.description,
  };
}
