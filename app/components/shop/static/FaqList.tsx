import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import type { FaqEntry } from "~/content/faq";
import { FaqAnswer } from "../FaqAnswer";
import { faqAnchor } from "~/lib/search";

/**
 * Questions as <details>/<summary>: they open and close without JavaScript, and the
 * browser opens the one whose answer a link such as /faq#quels-sont-les-ingredients points to.
 * With JavaScript, client-side navigations to an anchor open the question too.
 */
export function FaqList({ entries }: { entries: readonly FaqEntry[] }) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    const details = target?.closest("details");
    if (target && details) {
      details.open = true;
      target.scrollIntoView({ block: "start" });
    }
  }, [hash]);

  return (
    <ul className="mt-8 divide-y divide-ink/10 rounded-2xl bg-white shadow-sm ring-1 ring-ink/5" data-testid="faq-list">
      {entries.map((entry) => {
        const id = faqAnchor(entry.question);
        return (
          <li key={id}>
            <details className="group">
              <summary className="flex cursor-pointer list-none items-start justify-between gap-4 px-5 py-4 text-left font-medium text-ink hover:text-rose-700 [&::-webkit-details-marker]:hidden">
                <h2 className="text-base">{entry.question}</h2>
                <svg
                  aria-hidden="true"
                  className="mt-1 shrink-0 transition-transform group-open:rotate-45"
                  width="16"
                  height="16"
                  viewBox="0 0 16 16"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinecap="round"
                >
                  <path d="M8 2v12M2 8h12" />
                </svg>
              </summary>
              <FaqAnswer id={id} entry={entry} className="scroll-mt-40 px-5 pb-5 leading-relaxed text-ink-soft" />
            </details>
          </li>
        );
      })}
    </ul>
  );
}
