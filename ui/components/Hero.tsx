import { Link } from "react-router-dom";

export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero__inner">
        <p className="eyebrow">Factory &amp; quarry · Zarqa, Jordan</p>
        <h1 id="hero-title" className="hero__title">
          WELCOME TO THE WORLD OF FINE STONE
        </h1>
        <p className="hero__description">
          We are a factory and a quarry. From the sawing and cutting of raw blocks to the finished
          product, every step happens under one roof, in marble, Jerusalem stone and granite. Our
          stone is distributed in Jordan, Palestine, Italy, Greece, Spain, the Gulf and the United
          States.
        </p>
        <div className="hero__actions">
          <Link to="/projects" className="button button--primary">
            Projects
          </Link>
          <Link to="/Collabrations" className="button button--ghost">
            Collabrations
          </Link>
        </div>
      </div>
    </section>
  );
}
