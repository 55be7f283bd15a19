import { useLocale } from "../i18n/locale";

interface BookingPromoProps {
  bookingUrl: string;
}

export function BookingPromo({ bookingUrl }: BookingPromoProps) {
  const text = useLocale().messages.booking;
  return (
    <section className="booking" aria-labelledby="booking-title">
      <div className="container booking__inner">
        <div>
          <h2 id="booking-title" className="booking__title">
            {text.title}
          </h2>
          <p className="booking__text">{text.text}</p>
        </div>
        <a
          className="button button--primary button--large"
          href={bookingUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          {text.button}
        </a>
      </div>
    </section>
  );
}
