import { useEffect, useId, useRef, useState } from "react";
import type { FaqEntry } from "~/content/faq";
import { FaqAnswer } from "../FaqAnswer";
import { ChevronIcon } from "./icons";
import { useHydrated } from "~/components/ui/useHydrated";

type Props = {
  items: readonly FaqEntry[];
  /** Heading level of each question in the scripted version (the section title is one above). */
  headingLevel?: 3 | 4;
};

/**
 * Accordion: one answer open at a time, clicking the open question closes it.
 * Without JavaScript it is a set of exclusive <details name> elements, so every answer
 * stays reachable; once React runs it becomes buttons with aria-expanded/aria-controls.
 */
export function FaqAccordion({ items, headingLevel = 3 }: Props) {
  const hydrated = useHydrated();
  const baseId = useId();
  const [open, setOpen] = useState<number | null>(null);
  const detailsRefs = useRef<(HTMLDetailsElement | null)[]>([]);

  // Keep what a visitor opened before the scripts arrived.
  useEffect(() => {
    const i = detailsRefs.current.findIndex((d) => d?.open);
    if (i >= 0) setOpen(i);
  }, []);

  const Heading = headingLevel === 4 ? "h4" : "h3";
  const itemClass = "border-b border-ink/10 last:border-b-0";
  const questionClass =
    "flex w-full cursor-pointer list-none items-center justify-between gap-4 py-5 text-left font-medium text-ink hover:text-rose-700 [&::-webkit-details-marker]:hidden";
  const answerClass = "pb-5 pr-8 leading-relaxed text-ink-soft";

  if (!hydrated) {
    return (
      <div className="rounded-2xl bg-white px-5 shadow-sm ring-1 ring-ink/5 sm:px-8">
        {items.map((item, i) => (
          <details
            key={item.question}
            name={`faq${baseId}`}
            ref={(el) => {
              detailsRefs.current[i] = el;
            }}
            className={`group ${itemClass}`}
          >
            <summary className={questionClass}>
              <span>{item.question}</span>
              <ChevronIcon className="h-5 w-5 shrink-0 text-rose-600 transition group-open:rotate-180" />
            </summary>
            <FaqAnswer entry={item} className={answerClass} />
          </details>
        ))}
      </div>
    );
  }

  return (
    <div className="rounded-2xl bg-white px-5 shadow-sm ring-1 ring-ink/5 sm:px-8">
      {items.map((item, i) => {
        const isOpen = open === i;
        const buttonId = `faq-q${baseId}${i}`;
        const panelId = `faq-a${baseId}${i}`;
        return (
          <div key={item.question} className={itemClass}>
            <Heading className="text-base">
              <button
                type="button"
                id={buttonId}
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => setOpen(isOpen ? null : i)}
                className={questionClass}
              >
                <span>{item.question}</span>
                <ChevronIcon className={`h-5 w-5 shrink-0 text-rose-600 transition ${isOpen ? "rotate-180" : ""}`} />
              </button>
            </Heading>
            <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!isOpen}>
              <FaqAnswer entry={item} className={answerClass} />
            </div>
          </div>
        );
      })}
    </div>
  );
}
