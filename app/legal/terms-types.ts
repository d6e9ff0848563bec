import type { ShopContact } from "~/lib/company";

/**
 * A legal text as data, so that one text is rendered as a page (/cgv), as plain text and as
 * HTML for the emails, and so that an old version can be rendered exactly as it was.
 */

/** A piece of running text: plain text, a link (a path of the shop, mailto: or an outside address), bold, a superscript. */
export type Inline = string | { link: string; text: string } | { strong: string } | { sup: string };

export type Block =
  | { kind: "paragraph"; content: Inline[] }
  | { kind: "list"; items: Inline[][] }
  /** The model withdrawal form of the Code de la consommation, set apart in a box. */
  | { kind: "withdrawalForm"; title: string; paragraphs: string[] }
  /** The company's postal address, email and phone. */
  | { kind: "contact"; name: string; contact: ShopContact };

export type TermsSection = { id: string; title: string; blocks: Block[] };

export type TermsOfSale = {
  /** The date the version took effect, `YYYY-MM-DD`. */
  version: string;
  title: string;
  intro: Inline[];
  sections: TermsSection[];
};

/** The plain text of inline pieces (links keep their text only). */
export function inlineText(content: Inline[]): string {
  return content
    .map((piece) => {
      if (typeof piece === "string") return piece;
      if ("link" in piece) return piece.text;
      if ("strong" in piece) return piece.strong;
      return piece.sup;
    })
    .join("");
}
