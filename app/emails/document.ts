import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/**
 * An email's HTML: the static markup of its component behind the HTML5 doctype.
 *
 * React's own renderToStaticMarkup rather than react-email: the shop already ships React, the
 * six emails need only tables and inline styles (what Gmail and Outlook read), and rendering
 * stays synchronous, so it runs inside the sender without a new dependency or build step.
 */
export function htmlDocument(element: ReactElement): string {
  return `<!doctype html>${renderToStaticMarkup(element)}`;
}
