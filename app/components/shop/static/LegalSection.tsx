import type { ReactNode } from "react";

type TocItem = { id: string; title: string };

/** A numbered section of a legal text: "5. Paiement" as an h2 with an anchor. */
export function LegalSection({
  number,
  id,
  title,
  children,
}: {
  number?: number;
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-titre`} id={id} className="scroll-mt-24">
      <h2 id={`${id}-titre`}>
        {number !== undefined ? `${number}. ` : ""}
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Table of contents with links to the sections of a long legal text. */
export function TableOfContents({ items, numbered = true }: { items: readonly TocItem[]; numbered?: boolean }) {
  return (
    <nav aria-label="Sommaire" className="mt-8 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-ink/5">
      <p className="!mt-0 text-sm font-semibold uppercase tracking-wider !text-ink">Sommaire</p>
      <ol className="mt-3 grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
        {items.map((item, i) => (
          <li key={item.id} className="!mt-0 py-0.5">
            <a href={`#${item.id}`} className="text-ink-soft underline-offset-2 hover:text-rose-700 hover:underline">
              {numbered ? `${i + 1}. ` : ""}
              {item.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
