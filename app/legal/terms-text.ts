import type { Block, Inline, TermsOfSale } from "./terms-types";
import { termsVersionLabel } from "./terms-of-sale";

/**
 * Plain-text rendering of a legal text, for reading in an email's text part: numbered
 * headings, blank lines between paragraphs, lists with dashes. A link to a page of the shop
 * keeps its address, absolute on `baseUrl`, in brackets after its text.
 */

export function inlineToText(content: Inline[], baseUrl: string): string {
  return content
    .map((piece) => {
      if (typeof piece === "string") return piece;
      if ("strong" in piece) return piece.strong;
      if ("sup" in piece) return piece.sup;
      if (piece.link.startsWith("/")) return `${piece.text} (${baseUrl}${piece.link})`;
      return piece.text;
    })
    .join("");
}

function blockToText(block: Block, baseUrl: string): string {
  switch (block.kind) {
    case "paragraph":
      return inlineToText(block.content, baseUrl);
    case "list":
      return block.items.map((item) => `- ${inlineToText(item, baseUrl)}`).join("\n");
    case "withdrawalForm":
      return [`--- ${block.title} ---`, ...block.paragraphs].join("\n\n");
    case "contact":
      return [
        block.name,
        block.contact.siteAddress.trim(),
        `Email : ${block.contact.siteEmail}`,
        `Téléphone : ${block.contact.sitePhone}`,
      ].join("\n");
  }
}

export function termsOfSaleText(terms: TermsOfSale, options: { baseUrl: string }): string {
  const title = `${terms.title.toUpperCase()}\nVersion du ${termsVersionLabel(terms.version)}`;
  const sections = terms.sections.map((section, i) =>
    [`${i + 1}. ${section.title.toUpperCase()}`, ...section.blocks.map((b) => blockToText(b, options.baseUrl))].join("\n\n"),
  );
  return [title, inlineToText(terms.intro, options.baseUrl), ...sections].join("\n\n\n").replace(/\n{4,}/g, "\n\n\n") + "\n";
}
