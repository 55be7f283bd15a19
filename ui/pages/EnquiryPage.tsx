import { type ReactNode, useEffect, useRef } from "react";
import { ContactFooter } from "../components/ContactFooter";
import { usePageData } from "../data/PageDataContext";
import { useLocale } from "../i18n/locale";
import { formatNumber } from "../data/stones";
import { format, type Messages } from "../i18n/messages";
import { pagePath } from "../routes/routes";
import site from "../site.json";
import type { Branch, EnquiryForm } from "../types";

// The visitor's fields, in the form's order; their limits are site.json's (the server checks them).
const FIELDS = ["name", "email", "phone", "company", "country", "stone", "quantity", "message"] as const;
type Field = (typeof FIELDS)[number];
const { limits: LIMITS, maxLinks: MAX_LINKS } = site.enquiry;
const REQUIRED: readonly string[] = site.enquiry.required;
const fieldId = (name: string) => `enquiry-${name}`;

/** /enquiry: the enquiry form, a plain HTML form posted to the server, which answers with the
 *  thank-you page (/enquiry?sent=…) or this form again with what was typed and its problems. */
export function EnquiryPage() {
  const { enquiry: form } = usePageData();
  const { locale } = useLocale();
  // Reached by client-side navigation, the page data is another page's: the server makes this one.
  const ours = form !== undefined && form.locale === locale;
  useEffect(() => {
    if (!ours) window.location.reload();
  }, [ours]);
  return (
    <>
      <main id="main" className="enquiry">
        <div className="container enquiry__inner">
          {ours && (form.sent ? <EnquirySent form={form} /> : <EnquiryFormView form={form} />)}
        </div>
      </main>
      <ContactFooter />
    </>
  );
}

function EnquiryFormView({ form }: { form: EnquiryForm }) {
  const { messages, to } = useLocale();
  const text = messages.enquiry;
  const { values, errors } = form;
  const invalid = FIELDS.filter((name) => errors[name]);
  const alert = useRef<HTMLDivElement>(null);
  // Once the code runs, the problems are where a screen reader and the keyboard start.
  useEffect(() => alert.current?.focus(), []);
  // What every control takes: its name, what was typed, and the words that describe it.
  const control = (name: Field, hint = false) => ({
    id: fieldId(name),
    name,
    defaultValue: values[name] ?? "",
    required: REQUIRED.includes(name),
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby":
      [errors[name] && `${fieldId(name)}-error`, hint && `${fieldId(name)}-hint`]
        .filter(Boolean)
        .join(" ") || undefined,
  });
  const aboutKey = values.about?.startsWith("projects/") ? "aboutProjects" : "aboutCollabrations";
  return (
    <>
      <h1 className="list-page__title">{text.title}</h1>
      <p className="list-page__intro">{text.intro}</p>
      {(invalid.length > 0 || form.problem) && (
        <div className="enquiry__alert" role="alert" tabIndex={-1} ref={alert}>
          {form.problem && <p>{text.problems[form.problem]}</p>}
          {form.problem && form.problem !== "again" && <BranchContacts branch={form.branch} />}
          {invalid.length > 0 && (
            <>
              <p>{text.fixThese}</p>
              <ul>
                {invalid.map((name) => (
                  <li key={name}>
                    <a href={`#${fieldId(name)}`}>
                      {format(text.fieldProblem, {
                        field: text[name],
                        problem: errorText(text, name, errors[name]) ?? "",
                      })}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <form className="enquiry-form" method="post" action={to(pagePath("enquiry"))} noValidate>
        <input type="hidden" name="token" value={values.token ?? ""} />
        <input type="hidden" name="about" value={values.about ?? ""} />
        <input type="hidden" name="page" value={values.page ?? ""} />
        {/* Off screen and out of the tab order: people leave it empty, bots fill it. */}
        <div className="enquiry-form__trap" aria-hidden="true">
          <label>
            {text.trap}
            <input name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>
        <p className="enquiry-form__note">{text.required}</p>
        {form.about && (
          <p className="enquiry-form__about" dir="auto">
            {format(text[aboutKey], { name: form.about })}
          </p>
        )}
        <FormField name="name" errors={errors}>
          <input {...control("name")} maxLength={LIMITS.name} autoComplete="name" />
        </FormField>
        <FormField name="email" errors={errors}>
          <input
            {...control("email")}
            type="email"
            dir="ltr"
            maxLength={LIMITS.email}
            autoComplete="email"
          />
        </FormField>
        <FormField name="phone" errors={errors}>
          <input
            {...control("phone")}
            type="tel"
            dir="ltr"
            maxLength={LIMITS.phone}
            autoComplete="tel"
          />
        </FormField>
        <FormField name="company" errors={errors} hint={text.optional}>
          <input {...control("company", true)} maxLength={LIMITS.company} autoComplete="organization" />
        </FormField>
        <FormField name="country" errors={errors}>
          <select {...control("country")} autoComplete="country">
            <option value="">{text.chooseCountry}</option>
            {form.countries.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField name="stone" errors={errors}>
          <select {...control("stone")}>
            <option value="">{text.noStone}</option>
            {form.stones.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField name="quantity" errors={errors} hint={text.quantityHint}>
          <input {...control("quantity", true)} inputMode="decimal" maxLength={LIMITS.quantity} />
        </FormField>
        <FormField
          name="message"
          errors={errors}
          hint={format(text.messageHint, {
            limit: formatNumber(LIMITS.message, messages.stones),
            links: MAX_LINKS,
          })}
        >
          <textarea {...control("message", true)} rows={7} maxLength={LIMITS.message} dir="auto" />
        </FormField>
        <p className="enquiry-form__note">{format(text.kept, { days: form.keepDays })}</p>
        <button type="submit" className="button button--primary button--large">
          {text.send}
        </button>
      </form>
    </>
  );
}

/** A field's label, its problem beside it (before the control, where the eye lands), the
 *  control, and its hint. */
function FormField(props: {
  name: Field;
  errors: Record<string, string>;
  hint?: string;
  children: ReactNode;
}) {
  const text = useLocale().messages.enquiry;
  const id = fieldId(props.name);
  const error = errorText(text, props.name, props.errors[props.name]);
  return (
    <div className={error ? "enquiry-field enquiry-field--invalid" : "enquiry-field"}>
      <label htmlFor={id}>{`${text[props.name]}${REQUIRED.includes(props.name) ? " *" : ""}`}</label>
      {error && (
        <p className="enquiry-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {props.children}
      {props.hint && (
        <p className="enquiry-field__hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

/** The thank-you page: what was sent, to which branch, and when to expect an answer. */
function EnquirySent({ form }: { form: EnquiryForm }) {
  const { messages, to } = useLocale();
  const text = messages.enquiry;
  const { values } = form;
  const shown: [string, string | undefined][] = [
    [text.name, values.name],
    [text.email, values.email],
    [text.phone, values.phone],
    [text.company, values.company],
    [text.country, form.countries[0]?.[1]],
    [text.stone, form.stones[0]?.[1]],
    [text.quantity, values.quantity],
  ];
  return (
    <>
      <h1 className="list-page__title">{text.sentTitle}</h1>
      <p className="list-page__intro">{format(text.sentText, { country: form.branch.country })}</p>
      <BranchContacts branch={form.branch} />
      <h2 className="stone-page__heading">{text.sentSummary}</h2>
      <dl className="enquiry-sent">
        {shown
          .filter(([, value]) => value)
          .map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>
                <bdi>{value}</bdi>
              </dd>
            </div>
          ))}
        <div>
          <dt>{text.message}</dt>
          <dd className="enquiry-sent__message" dir="auto">
            {values.message}
          </dd>
        </div>
      </dl>
      <p>
        <a className="button button--ghost-dark" href={to(pagePath("enquiry"))}>
          {text.another}
        </a>
      </p>
    </>
  );
}

function BranchContacts({ branch }: { branch: Branch }) {
  const { messages } = useLocale();
  return (
    <p className="enquiry__branch">
      {format(messages.enquiry.branch, { country: branch.country })}{" "}
      <a href={`tel:${branch.phone.replace(/[^\d+]/g, "")}`} dir="ltr">
        {branch.phone}
      </a>
      {branch.email && (
        <>
          {" · "}
          <a href={`mailto:${branch.email}`} dir="ltr">
            {branch.email}
          </a>
        </>
      )}
    </p>
  );
}

function errorText(
  text: Messages["enquiry"],
  name: Field,
  code: string | undefined,
): string | undefined {
  if (code === undefined) return undefined;
  const template = text.errors[code as keyof Messages["enquiry"]["errors"]] ?? code;
  return format(template, { limit: LIMITS[name], links: MAX_LINKS });
}
