import type { Locale } from "../i18n/messages";
import type { CardItem } from "../types";

/** A card's name and description in `locale`, falling back to English where missing. */
export function cardText(item: CardItem, locale: Locale): { name: string; description: string } {
  if (locale === "ar") {
    return {
      name: item.name_ar || item.name,
      description: item.description_ar || item.description,
    };
  }
  return { name: item.name, description: item.description };
}
