import { useEffect } from "react";
import { Link } from "react-router-dom";
import { ContactFooter, whatsAppLink } from "../components/ContactFooter";
import { cardText } from "../data/localizedItem";
import { usePageData } from "../data/PageDataContext";
import { photoAtWidths } from "../data/photoSources";
import { FIGURES, formatNumber, label } from "../data/stones";
import { useCollection } from "../hooks/useCollection";
import { useLocale } from "../i18n/locale";
import { format } from "../i18n/messages";
import { cardTitle, showTitle } from "../lib/documentTitle";
import { itemPath, pagePath } from "../routes/routes";
import type { Stone } from "../types";

// The photo's column: the whole width on a phone, half the container beside the facts.
const PHOTO_SIZES = "(max-width: 48rem) calc(100vw - 2.5rem), 36rem";
const FINISH_SIZES = "(max-width: 48rem) calc(50vw - 2rem), 17rem";

/** A stone's page (/stones/{id}): its photos, facts and figures, where it was used, and
 *  the way to ask about it. Printed, it is the stone's data sheet (styles/site.css, @media print). */
export function StonePage({ stone, listPath }: { stone: Stone; listPath: string }) {
  const { company, siteUrl = "" } = usePageData();
  const { locale, messages, to } = useLocale();
  const text = messages.stones;
  const { name, description } = cardText(stone, locale);
  const origin = stone[`origin_${locale}`] || stone.origin;
  const finishPhotos = (stone.finishes ?? []).filter((finish) => stone.finishPhotos?.[finish]);
  const figures = FIGURES.filter(({ field }) => stone[field] !== undefined);
  const uses = [
    { page: "projects" as const, items: useCollection("projects") },
    { page: "collabrations" as const, items: useCollection("collabrations") },
  ].flatMap(({ page, items }) =>
    items
      .filter((item) => item.stones?.includes(stone.id))
      .map((item) => ({ href: itemPath(to(pagePath(page)), item.id), item })),
  );
  // The server titles the page; client navigation keeps it in step.
  useEffect(() => {
    showTitle(cardTitle(name, messages.pages.stones.title, company.name));
  }, [name, messages, company.name]);

  return (
    <>
      <main id="main" className="stone-page">
        <div className="container">
          <p className="stone-page__back">
            <Link to={listPath}>{text.back}</Link>
          </p>
          <div className="stone-page__top">
            <div>
              <p className="eyebrow">
                {[
                  stone.family && label(text, "family", stone.family),
                  stone.colour && label(text, "colour", stone.colour),
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </p>
              <h1 className="list-page__title" dir="auto">
                {name}
              </h1>
              <p className="stone-page__description" dir="auto">
                {description}
              </p>
              <dl className="stone-page__facts">
                {origin && (
                  <div>
                    <dt>{text.originTitle}</dt>
                    <dd dir="auto">{origin}</dd>
                  </div>
                )}
                {stone.finishes && (
                  <div>
                    <dt>{text.finishesTitle}</dt>
                    <dd>{stone.finishes.map((finish) => label(text, "finish", finish)).join(", ")}</dd>
                  </div>
                )}
                {stone.formats && (
                  <div>
                    <dt>{text.formatsTitle}</dt>
                    <dd>
                      <ul>
                        {stone.formats.map((item) => (
                          <li key={item}>
                            <bdi>{item}</bdi>
                          </li>
                        ))}
                      </ul>
                    </dd>
                  </div>
                )}
              </dl>
            </div>
            <img
              className="stone-page__photo"
              {...photoAtWidths(stone, PHOTO_SIZES, 960)}
              alt={name}
              width={1200}
              height={900}
              fetchPriority="high"
            />
          </div>
          {figures.length > 0 && (
            <section className="stone-page__section" aria-labelledby="figures-title">
              <h2 id="figures-title" className="stone-page__heading">
                {text.figuresTitle}
              </h2>
              <table className="stone-figures">
                <thead>
                  <tr>
                    <th scope="col">{text.property}</th>
                    <th scope="col">{text.value}</th>
                    <th scope="col">{text.standard}</th>
                  </tr>
                </thead>
                <tbody>
                  {figures.map(({ field, unit, standard }) => (
                    <tr key={field}>
                      <th scope="row">{text.figures[field]}</th>
                      <td>
                        <bdi>{`${formatNumber(stone[field]!, text)} ${unit}`}</bdi>
                      </td>
                      <td>
                        <bdi>{standard}</bdi>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          {finishPhotos.length > 0 && (
            <section
              className="stone-page__section stone-page__finishes"
              aria-labelledby="finishes-title"
            >
              <h2 id="finishes-title" className="stone-page__heading">
                {text.finishesTitle}
              </h2>
              <ul className="stone-finishes">
                {finishPhotos.map((finish) => (
                  <li key={finish}>
                    <figure>
                      <img
                        {...photoAtWidths(
                          {
                            id: finish,
                            photoUrl: stone.finishPhotos![finish],
                            photoKey: stone.finishPhotoKeys?.[finish],
                          },
                          FINISH_SIZES,
                          480,
                        )}
                        alt={format(text.finishPhoto, {
                          stone: name,
                          finish: label(text, "finish", finish),
                        })}
                        width={1200}
                        height={900}
                        loading="lazy"
                        decoding="async"
                      />
                      <figcaption>{label(text, "finish", finish)}</figcaption>
                    </figure>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {uses.length > 0 && (
            <section className="stone-page__section stone-page__uses" aria-labelledby="uses-title">
              <h2 id="uses-title" className="stone-page__heading">
                {text.usedIn}
              </h2>
              <ul>
                {uses.map(({ href, item }) => (
                  <li key={href}>
                    <Link to={href} dir="auto">
                      {cardText(item, locale).name}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <p className="stone-page__actions">
            {/* A page load: the server makes the form, naming the stone. */}
            <a
              className="button button--primary"
              href={`${to(pagePath("enquiry"))}?stone=${encodeURIComponent(stone.id)}`}
            >
              {text.ask}
            </a>
            {company.branches
              .filter((branch) => branch.whatsapp)
              .map((branch) => (
                <a
                  key={branch.country}
                  className="button button--ghost-dark"
                  href={whatsAppLink(
                    branch.whatsapp!,
                    format(text.whatsAppMessage, {
                      stone: name,
                      page: siteUrl + itemPath(listPath, stone.id),
                    }),
                  )}
                >
                  {format(text.whatsApp, { country: branch.country })}
                </a>
              ))}
            <button type="button" className="button button--ghost-dark" onClick={() => window.print()}>
              {text.print}
            </button>
          </p>
        </div>
      </main>
      <ContactFooter />
    </>
  );
}
