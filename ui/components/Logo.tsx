interface LogoProps {
  name: string;
}

/** A cut-stone mark beside the company name. */
export function Logo({ name }: LogoProps) {
  return (
    <span className="logo">
      <svg className="logo__mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
        <path d="M4 11 16 4l12 7-12 7z" fill="#e9e1d3" />
        <path d="M4 11v10l12 7V18z" fill="#b9a98e" />
        <path d="M28 11v10l-12 7V18z" fill="#8c7b61" />
      </svg>
      <span className="logo__name">{name}</span>
    </span>
  );
}
