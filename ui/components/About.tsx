import { useLocale } from "../i18n/locale";

// react-scroll finds scroll targets by element id, so a plain section will do.
export function About() {
  const text = useLocale().messages.about;
  return (
    <section id="about" className="about" aria-labelledby="about-title">
      <div className="container about__inner">
        <h2 id="about-title" className="section-title">
          {text.title}
        </h2>
        <div className="about__text">
          <p>{text.founder}</p>
          <p>{text.equipment}</p>
          <p>{text.innovation}</p>
        </div>
      </div>
    </section>
  );
}
