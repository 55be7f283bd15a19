import { type ComponentProps, useEffect, useRef } from "react";
import { ContactFooter } from "../components/ContactFooter";
import { usePageData } from "../hooks/usePageData";
import { useLocale } from "../hooks/useLocale";
import { formatNumber } from "../data/stones";
import { format, type Messages } from "../i18n/messages";
import site from "../site.json";
import type { Branch, EnquiryForm } from "../types";

// The visitor's fields, in the form's order; their limits are site.json's (the server checks them).
const FIELDS = ["name", "email", "phone", "company", "country", "stone", "quantity", "message"] as const;
type Field = (typeof FIELDS)[number];
const { limits: LIMITS, maxLinks: MAX_LINKS } = site.enquiry;
const REQUIRED: readonly string[] = site.enquiry.required;
const fieldId = (name: string) => `enquiry-${name}`;

/** /enquiry: a plain HTML form; the server answers with the thank-you page or the form again
 *  with its problems. */
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
      <main id="main" className="list-page">
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
      <form className="enquiry-form" method="post" action={to("enquiry")} noValidate>
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
        <FormField form={form} name="name" autoComplete="name" />
        <FormField form={form} name="email" type="email" dir="ltr" autoComplete="email" />
        <FormField form={form} name="phone" type="tel" dir="ltr" autoComplete="tel" />
        <FormField form={form} name="company" hint={text.optional} autoComplete="organization" />
        <FormField
          form={form}
          name="country"
          options={[["", text.chooseCountry], ...form.countries]}
          autoComplete="country"
        />
        <FormField form={form} name="stone" options={[["", text.noStone], ...form.stones]} />
        <FormField form={form} name="quantity" hint={text.quantityHint} inputMode="decimal" />
        <FormField
          form={form}
          name="message"
          hint={format(text.messageHint, {
            limit: formatNumber(LIMITS.message, messages.stones),
            links: MAX_LINKS,
          })}
          rows={7}
          dir="auto"
        />
        <p className="enquiry-form__note">{format(text.kept, { days: form.keepDays })}</p>
        <button type="submit" className="button button--primary button--large">
          {text.send}
        </button>
      </form>
    </>
  );
}

/** A field: its label, its problem beside it (before the control, where the eye lands), the
 *  control (a select with `options`, a textarea with `rows`, else an input), and its hint. */
function FormField({
  form,
  name,
  hint,
  options,
  rows,
  ...input
}: {
  form: EnquiryForm;
  name: Field;
  hint?: string;
  options?: [string, string][];
  rows?: number;
} & Pick<ComponentProps<"input">, "type" | "dir" | "autoComplete" | "inputMode">) {
  const text = useLocale().messages.enquiry;
  const id = fieldId(name);
  const error = errorText(text, name, form.errors[name]);
  const control = {
    id,
    name,
    defaultValue: form.values[name] ?? "",
    required: REQUIRED.includes(name),
    "aria-invalid": error ? true : undefined,
    "aria-describedby":
      [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(" ") || undefined,
  };
  return (
    <div className={error ? "enquiry-field enquiry-field--invalid" : "enquiry-field"}>
      <label htmlFor={id}>{`${text[name]}${REQUIRED.includes(name) ? " *" : ""}`}</label>
      {error && (
        <p className="enquiry-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {options ? (
        <select {...control} autoComplete={input.autoComplete}>
          {options.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      ) : rows ? (
        <textarea {...control} rows={rows} maxLength={LIMITS[name]} dir={input.dir} />
      ) : (
        <input {...control} maxLength={LIMITS[name]} {...input} />
      )}
      {hint && (
        <p className="enquiry-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

function EnquirySent({ form }: { form: EnquiryForm }) {
  const { messages, to } = useLocale();
  const text = messages.enquiry;
  // The country and the stone by name, not code.
  const sent: Record<string, string | undefined> = {
    ...form.values,
    country: form.countries[0]?.[1],
    stone: form.stones[0]?.[1],
  };
  return (
    <>
      <h1 className="list-page__title">{text.sentTitle}</h1>
      <p className="list-page__intro">{format(text.sentText, { country: form.branch.country })}</p>
      <BranchContacts branch={form.branch} />
      <h2 className="stone-page__heading">{text.sentSummary}</h2>
      <dl className="enquiry-sent">
        {FIELDS.filter((name) => name !== "message" && sent[name]).map((name) => (
          <div key={name}>
            <dt>{text[name]}</dt>
            <dd>
              <bdi>{sent[name]}</bdi>
            </dd>
          </div>
        ))}
        <div>
          <dt>{text.message}</dt>
          <dd dir="auto">{sent.message}</dd>
        </div>
      </dl>
      <p>
        <a className="button button--ghost-dark" href={to("enquiry")}>
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

function errorText(text: Messages["enquiry"], name: Field, code?: string): string | undefined {
  if (code === undefined) return undefined;
  const template = text.errors[code as keyof Messages["enquiry"]["errors"]] ?? code;
  return format(template, { limit: LIMITS[name], links: MAX_LINKS });
}
