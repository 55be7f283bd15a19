import { useEffect } from "react";
import { Link } from "react-router-dom";
import { ContactFooter, whatsAppLink } from "../components/ContactFooter";
import { cardText, nameIn } from "../data/localizedItem";
import { usePageData } from "../hooks/usePageData";
import { photoAtWidths } from "../data/photoSources";
import { FIGURES, formatNumber, kind, label } from "../data/stones";
import { useNames } from "../hooks/useCollection";
import { useLocale } from "../hooks/useLocale";
import { format } from "../i18n/messages";
import { cardTitle } from "../lib/documentTitle";
import { itemPath } from "../routes/routes";
import type { Stone } from "../types";

// Beside the facts on a wide screen (half the container), the whole width on a phone.
const PHOTO_SIZES = "(max-width: 48rem) calc(100vw - 2.5rem), 36rem";

/** /stones/{id}. Printed, it is its data sheet (styles/site.css, @media print). */
export function StonePage({ stone, listPath }: { stone: Stone; listPath: string }) {
  const { company, siteUrl = "" } = usePageData();
  const { locale, messages, to } = useLocale();
  const text = messages.stones;
  const { name, description } = cardText(stone, locale);
  const facts = [
    [text.originTitle, stone[`origin_${locale}`] || stone.origin],
    [
      text.finishesTitle,
      stone.finishes?.map((finish) => label(text, "finish", finish)).join(text.listSeparator),
    ],
    [text.formatsTitle, stone.formats?.join("; ")],
  ].filter((fact): fact is [string, string] => Boolean(fact[1]));
  const finishPhotos = (stone.finishes ?? []).filter((finish) => stone.finishPhotos?.[finish]);
  const figures = FIGURES.filter(({ field }) => stone[field] !== undefined);
  const named = { projects: useNames("projects"), collabrations: useNames("collabrations") };
  const uses = (["projects", "collabrations"] as const).flatMap((page) =>
    named[page].filter((item) => item.stones?.includes(stone.id)).map((item) => ({ page, item })),
  );
  // After client-side navigation (the server titles the first page).
  useEffect(() => {
    document.title = cardTitle(name, messages.pages.stones.title, company.name);
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
              <p className="eyebrow">{kind(stone, text)}</p>
              <h1 className="list-page__title" dir="auto">
                {name}
              </h1>
              <p className="stone-page__description" dir="auto">
                {description}
              </p>
              <dl className="stone-page__facts">
                {facts.map(([term, value]) => (
                  <div key={term}>
                    <dt>{term}</dt>
                    <dd dir="auto">{value}</dd>
                  </div>
                ))}
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
            <section className="stone-page__section">
              <h2 className="stone-page__heading">{text.figuresTitle}</h2>
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
            <section className="stone-page__section">
              <h2 className="stone-page__heading">{text.finishesTitle}</h2>
              <ul className="stone-finishes">
                {finishPhotos.map((finish) => {
                  const photo = {
                    id: finish,
                    photoUrl: stone.finishPhotos![finish],
                    photoKey: stone.finishPhotoKeys?.[finish],
                  };
                  const shown = label(text, "finish", finish);
                  return (
                    <li key={finish}>
                      <figure>
                        <img
                          {...photoAtWidths(photo, "16rem", 480)}
                          alt={format(text.finishPhoto, { stone: name, finish: shown })}
                          width={1200}
                          height={900}
                          loading="lazy"
                        />
                        <figcaption>{shown}</figcaption>
                      </figure>
                    </li>
                  );
                })}
              </ul>
            </section>
          )}
          {uses.length > 0 && (
            <section className="stone-page__section stone-page__uses">
              <h2 className="stone-page__heading">{text.usedIn}</h2>
              <ul>
                {uses.map(({ page, item }) => (
                  <li key={`${page}/${item.id}`}>
                    <Link to={itemPath(to(page), item.id)} dir="auto">
                      {nameIn(item, locale)}
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
              href={`${to("enquiry")}?stone=${encodeURIComponent(stone.id)}`}
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
          </p>
        </div>
      </main>
      <ContactFooter />
    </>
  );
}
