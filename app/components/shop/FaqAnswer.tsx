import { Link } from "@remix-run/react";
import type { FaqEntry } from "~/content/faq";

/** A FAQ answer, and the link to the page that does what it says when it has one. */
export function FaqAnswer({ entry, className, id }: { entry: FaqEntry; className: string; id?: string }) {
  return (
    <p id={id} className={className}>
      {entry.answer}
      {entry.link ? (
        <>
          {" "}
          <Link to={entry.link.to} className="font-medium text-rose-700 underline">
            {entry.link.label}
          </Link>
        </>
      ) : null}
    </p>
  );
}
