/**
 * Press mentions as typographic marks set in our own type (no logo files).
 * Keep this list to publications that really wrote about the mask.
 */
const PRESS = [
  { name: "ELLE", className: "font-serif text-3xl font-bold tracking-tight" },
  { name: "Marie Claire", className: "font-serif text-2xl italic" },
  { name: "VOGUE", className: "font-serif text-2xl tracking-[0.3em]" },
  {
    name: "Madame Figaro",
    className: "whitespace-nowrap font-sans text-lg font-light uppercase tracking-wider md:text-xl md:tracking-widest",
  },
  { name: "Cosmopolitan", className: "font-sans text-xl font-black uppercase tracking-tight" },
];

export function PressLogos() {
  return (
    <section aria-labelledby="press-title" className="border-y border-ink/10 bg-white">
      <div className="container-page py-8 md:py-10">
        <h2 id="press-title" className="text-center text-xs font-semibold uppercase tracking-[0.25em] text-ink-soft">
          Ils parlent de nous
        </h2>
        <ul className="mt-6 grid grid-cols-2 items-center justify-items-center gap-x-6 gap-y-6 text-ink/80 sm:grid-cols-3 md:flex md:justify-between md:gap-x-8">
          {PRESS.map((p, i) => (
            <li key={p.name} className={`${p.className} select-none ${i === PRESS.length - 1 ? "col-span-2 sm:col-span-1" : ""}`}>
              {p.name}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
