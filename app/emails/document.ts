import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/** An email's HTML: the static markup of its component behind the HTML5 doctype. */
export function htmlDocument(element: ReactElement): string {
  return `<!doctype html>${renderToStaticMarkup(element)}`;
}
