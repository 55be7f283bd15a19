import { useLocale } from "../i18n/locale";
import { format, type Messages } from "../i18n/messages";
import type { Branch } from "../types";

interface ContactFooterProps {
  companyName: string;
  branches: Branch[];
}

// tel: links want the digits only, with the leading + kept.
function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

function BranchCard({ branch, text }: { branch: Branch; text: Messages["contact"] }) {
  return (
    <li className="branch">
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
            <a href={telHref(branch.phone)} dir="ltr">
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
  );
}

export function ContactFooter({ companyName, branches }: ContactFooterProps) {
  const text = useLocale().messages.contact;
  return (
    <footer id="contact" className="contact" aria-labelledby="contact-title">
      <div className="container">
        <h2 id="contact-title" className="section-title section-title--light">
          {text.title}
        </h2>
        <ul className="contact__branches">
          {branches.map((branch) => (
            <BranchCard key={branch.country} branch={branch} text={text} />
          ))}
        </ul>
        <p className="contact__legal">{format(text.legal, { name: companyName })}</p>
      </div>
    </footer>
  );
}
