import { Link } from "react-router-dom";
import { usePageData } from "../data/PageDataContext";
import { useLocale } from "../i18n/locale";
import { format } from "../i18n/messages";
import { pagePath } from "../routes/routes";

export function ContactFooter() {
  const { company } = usePageData();
  const { messages, to } = useLocale();
  const text = messages.contact;
  return (
    <footer id="contact" className="contact" aria-labelledby="contact-title">
      <div className="container">
        <h2 id="contact-title" className="section-title section-title--light">
          {text.title}
        </h2>
        <p className="contact__enquiry">
          <Link to={to(pagePath("enquiry"))}>{text.enquiry}</Link>
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
                      {/* Addresses and numbers read left to right in any language. */}
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
