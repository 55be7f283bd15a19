import { useLocation } from "react-router-dom";
import { usePageData } from "../hooks/usePageData";
import { useLocale } from "../hooks/useLocale";
import { format } from "../i18n/messages";

export function ContactFooter() {
  const { company, siteUrl = "" } = usePageData();
  const { messages, to } = useLocale();
  const { pathname } = useLocation();
  const text = messages.contact;
  const whatsAppText = format(messages.enquiry.whatsAppMessage, { page: siteUrl + pathname });
  return (
    <footer id="contact" className="contact" aria-labelledby="contact-title">
      <div className="container">
        <h2 id="contact-title" className="section-title section-title--light">
          {text.title}
        </h2>
        <p className="contact__enquiry">
          {/* A page load, not client-side navigation: the server makes the form. */}
          <a href={to("enquiry")}>{text.enquiry}</a>
        </p>
        <ul className="contact__branches">
          {company.branches.map((branch) => (
            <li key={branch.country} className="branch">
              <h3 className="branch__country">{branch.country}</h3>
              <dl className="branch__details">
                {branch.email && (
                  <div>
                    <dt>{text.email}</dt>
                    <dd>
                      <a href={`mailto:${branch.email}`} dir="ltr">
                        {branch.email}
                      </a>
                    </dd>
                  </div>
                )}
                <div>
                  <dt>{text.phone}</dt>
                  <dd>
                    {/* tel: links want the digits only, with the leading + kept. */}
                    <a href={`tel:${branch.phone.replace(/[^\d+]/g, "")}`} dir="ltr">
                      {branch.phone}
                    </a>
                    {branch.whatsapp && (
                      <>
                        {" · "}
                        <a href={whatsAppLink(branch.whatsapp, whatsAppText)}>{text.whatsApp}</a>
                      </>
                    )}
                  </dd>
                </div>
                {branch.address && (
                  <div>
                    <dt>{text.address}</dt>
                    <dd>{branch.address}</dd>
                  </div>
                )}
              </dl>
            </li>
          ))}
        </ul>
        <p className="contact__legal">{format(text.legal, { name: company.name })}</p>
      </div>
    </footer>
  );
}

/** A WhatsApp chat with `number`, `text` ready to send (wa.me wants the digits only). */
export function whatsAppLink(number: string, text: string): string {
  return `https://wa.me/${number.replace(/\D/g, "")}?text=${encodeURIComponent(text)}`;
}
