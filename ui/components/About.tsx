// react-scroll finds scroll targets by element id, so a plain section will do.
export function About() {
  return (
    <section id="about" className="about" aria-labelledby="about-title">
      <div className="container about__inner">
        <h2 id="about-title" className="section-title">
          About Us
        </h2>
        <div className="about__text">
          <p>
            Our founder has worked with stone since 1969. What began with a single saw beside a
            quarry face has grown into a company that follows every block from the quarry bed to
            the finished floor, façade or worktop.
          </p>
          <p>
            Today our factory runs modern equipment: multi-blade gang saws, CNC bridge cutters and
            automatic polishing lines that give precise dimensions and a consistent finish, slab
            after slab.
          </p>
          <p>
            We keep innovating, with new finishes, thinner and lighter cladding and careful use of
            every block, while keeping the craftsmanship that built our name.
          </p>
        </div>
      </div>
    </section>
  );
}
