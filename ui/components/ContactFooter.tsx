import type { Branch } from "../types";

interface ContactFooterProps {
  companyName: string;
  branches: Branch[];
}

// tel: links want the digits only, with the leading + kept.
function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

function BranchCard({ branch }: { branch: Branch }) {
  return (
    <li className="branch">
      <h3 className="branch__country">{branch.country}</h3>
      <dl className="branch__details">
        {branch.email && (
          <div>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${branch.email}`}>{branch.email}</a>
            </dd>
          </div>
        )}
        <div>
          <dt>Phone</dt>
          <dd>
            <a href={telHref(branch.phone)}>{branch.phone}</a>
          </dd>
        </div>
        {branch.address && (
          <div>
            <dt>Address</dt>
            <dd>{branch.address}</dd>
          </div>
        )}
      </dl>
    </li>
  );
}

export function ContactFooter({ companyName, branches }: ContactFooterProps) {
  return (
    <footer id="contact" className="contact" aria-labelledby="contact-title">
      <div className="container">
        <h2 id="contact-title" className="section-title section-title--light">
          Contact Us
        </h2>
        <ul className="contact__branches">
          {branches.map((branch) => (
            <BranchCard key={branch.country} branch={branch} />
          ))}
        </ul>
        <p className="contact__legal">
          © {companyName}. Marble, Jerusalem stone and granite since 1969.
        </p>
      </div>
    </footer>
  );
}
