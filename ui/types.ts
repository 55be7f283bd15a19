// Shapes shared by the server render and the browser. The server inlines a
// `PageData` into every page; the same object hydrates the client tree.

export interface Photo {
  id: string;
  photoUrl: string;
  /** The photo's name in the server's image route (data/photoSources.ts); absent: link photoUrl. */
  photoKey?: string;
}

/** An item as a page that only links it has it (a project's stones): id, names, stones. */
export interface Named {
  id: string;
  name: string;
  /** The text in another language where the content has it (name_ar, description_fr...);
   *  a page in that language falls back to English. */
  [translated: `name_${string}`]: string | undefined;
  stones?: string[];
}

/** A Project or a Collabration (a stone too). */
export interface CardItem extends Named, Photo {
  description: string;
  [translated: `description_${string}`]: string | undefined;
}

/** site.json's stone figures. */
export type Figure = "density" | "absorption" | "compressive" | "flexural" | "abrasion";

/** A stone of the catalogue: the fields the server kept (a value it refused is absent). */
export interface Stone extends CardItem, Partial<Record<Figure, number>> {
  family?: string;
  colour?: string;
  origin?: string;
  [translatedOrigin: `origin_${string}`]: string | undefined;
  finishes?: string[];
  finishPhotos?: Record<string, string>;
  finishPhotoKeys?: Record<string, string>;
  formats?: string[];
}

export interface CollectionItems {
  projects: CardItem[];
  collabrations: CardItem[];
  slider: Photo[];
  stones: Stone[];
}

export interface Branch {
  country: string;
  email?: string;
  phone: string;
  address?: string;
  whatsapp?: string;
}

/** Company facts from `company.toml`, in the page's language, editable without a rebuild. */
export interface Company {
  name: string;
  shortName: string;
  bookingUrl: string;
  videoId: string;
  videoTitle: string;
  branches: Branch[];
}

/** The enquiry page's form (server/enquiries/intake.py makes it): what to choose from, what
 *  was typed, its problems, and the signed token; or, once sent, what was sent. */
export interface EnquiryForm {
  /** The language it was made in: a page reached by client-side navigation has none of its own. */
  locale: string;
  /** [ISO code, name] of every country (a sent form: the one chosen). */
  countries: [string, string][];
  /** [id, name] of every stone (a sent form: the one chosen). */
  stones: [string, string][];
  /** The name of the project or collabration it is about. */
  about: string | null;
  values: Record<string, string>;
  /** A problem code per field (the catalogue's enquiry.errors words them). */
  errors: Record<string, string>;
  problem: "again" | "store" | "tooMany" | null;
  branch: Branch;
  keepDays: number;
  sent: boolean;
}

export interface PageData {
  company: Company;
  /** Where the public reaches the site (PUBLIC_BASE_URL): the address Share gives. */
  siteUrl?: string;
  /** The collections the server fetched for this route; absent ones are fetched by the client. */
  content: Partial<CollectionItems>;
  /** The collections the page only links, as names (server/rendering/page_content.py). */
  names?: Partial<Record<keyof CollectionItems, Named[]>>;
  enquiry?: EnquiryForm;
}
