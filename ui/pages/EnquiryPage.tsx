import { ContactFooter } from "../components/ContactFooter";
import { useLocale } from "../i18n/locale";

/** /enquiry: for now, how to reach the branches (their contacts below). The enquiry
 *  form (issue 36) replaces it, reading the stone asked about from ?stone=. */
export function EnquiryPage() {
  const { messages } = useLocale();
  return (
    <>
      <main id="main" className="list-page">
        <div className="container">
          <header className="list-page__header">
            <h1 className="list-page__title">{messages.enquiry.title}</h1>
            <p className="list-page__intro">{messages.enquiry.intro}</p>
          </header>
        </div>
      </main>
      <ContactFooter />
    </>
  );
}
