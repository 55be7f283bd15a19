interface BookingPromoProps {
  bookingUrl: string;
}

export function BookingPromo({ bookingUrl }: BookingPromoProps) {
  return (
    <section className="booking" aria-labelledby="booking-title">
      <div className="container booking__inner">
        <div>
          <h2 id="booking-title" className="booking__title">
            Book an appointment
          </h2>
          <p className="booking__text">
            Visit our showroom and factory, see the slabs in person and talk through your project
            with our team.
          </p>
        </div>
        <a
          className="button button--primary button--large"
          href={bookingUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          Book Now!
        </a>
      </div>
    </section>
  );
}
