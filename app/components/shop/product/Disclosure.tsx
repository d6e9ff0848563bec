import { useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { ChevronIcon } from "../landing/icons";
import { useHydrated } from "~/components/ui/useHydrated";

type Props = {
  /** Anchor of the block (e.g. "abonnement"); a link to #id opens it. */
  id: string;
  title: string;
  children: React.ReactNode;
};

/**
 * A collapsible block, closed at start. A <details> element without JavaScript,
 * a heading + button (aria-expanded, aria-controls) + region once React runs.
 */
export function Disclosure({ id, title, children }: Props) {
  const hydrated = useHydrated();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  const uid = useId();
  const buttonId = `${id}-bouton${uid}`;
  const panelId = `${id}-contenu${uid}`;

  useEffect(() => {
    if (details.current?.open) setOpen(true);
  }, []);
  useEffect(() => {
    if (location.hash === `#${id}`) setOpen(true);
  }, [location.hash, id]);

  const box = "scroll-mt-24 rounded-2xl border border-ink/10 bg-white";
  const head =
    "flex w-full cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-left font-serif text-lg text-ink hover:text-rose-700 [&::-webkit-details-marker]:hidden";
  const body = "border-t border-ink/10 px-5 py-4 text-sm leading-relaxed text-ink-soft";

  if (!hydrated) {
    return (
      <details id={id} ref={details} className={`group ${box}`}>
        <summary className={head}>
          <span>{title}</span>
          <ChevronIcon className="h-5 w-5 shrink-0 text-rose-600 transition group-open:rotate-180" />
        </summary>
        <div className={body}>{children}</div>
      </details>
    );
  }

  return (
    <div id={id} className={box}>
      <h2 className="text-lg">
        <button
          type="button"
          id={buttonId}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
          className={`${head} rounded-2xl`}
        >
          <span>{title}</span>
          <ChevronIcon className={`h-5 w-5 shrink-0 text-rose-600 transition ${open ? "rotate-180" : ""}`} />
        </button>
      </h2>
      <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!open} className={body}>
        {children}
      </div>
    </div>
  );
}
