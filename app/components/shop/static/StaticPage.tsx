import type { ReactNode } from "react";

/** Calm single-column layout of the information and legal pages: one h1, a lead, the text. */
export function StaticPage({
  eyebrow,
  title,
  intro,
  updatedAt,
  prose = true,
  children,
}: {
  eyebrow?: string;
  title: string;
  intro?: ReactNode;
  updatedAt?: string;
  /** Legal typography (h2, paragraphs, lists) for the body; off for pages with their own layout. */
  prose?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="container-page py-10 md:py-16">
      <article className="mx-auto max-w-3xl">
        <header className="border-b border-ink/10 pb-6">
          {eyebrow ? <p className="text-xs font-semibold uppercase tracking-widest text-rose-700">{eyebrow}</p> : null}
          <h1 className="mt-2 font-serif text-3xl leading-tight md:text-4xl">{title}</h1>
          {intro ? <div className="mt-4 text-lg leading-relaxed text-ink-soft">{intro}</div> : null}
          {updatedAt ? (
            <p className="mt-4 text-sm text-ink-soft" data-testid="updated-at">
              Dernière mise à jour : {updatedAt}
            </p>
          ) : null}
        </header>
        <div className={prose ? "prose-legal" : undefined}>{children}</div>
      </article>
    </div>
  );
}

/** Date shown at the top of the legal notice and the privacy policy; change it whenever one of them changes (the terms of sale show their version, app/legal). */
export const LEGAL_UPDATED_AT = "25 novembre 2026";
