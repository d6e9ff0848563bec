/**
 * The French typography that matters on a page, as one rule over its rendered text:
 * - a space before « ! ? : ; » (« commande ! », never « commande! »): a no-break one (U+00A0)
 *   or a narrow one (U+202F) in new texts; the plain spaces of the existing texts are still
 *   accepted (README, « Typographie »);
 * - « € » after the amount in the shop's format (« 25,90€ », « 10 000 € »), never before it, and
 *   never a decimal point;
 * - no English interface words.
 * Web addresses, times (14:30) and questions marks inside a link's query are not sentences.
 */

/** English interface words a French page should not show (whole words, any case). */
export const ENGLISH_UI_WORDS = [
  "Page Not Found",
  "Not Found",
  "Best Seller",
  "Loading",
  "Submit",
  "Cancel",
  "Close",
  "Add to cart",
  "Checkout",
  "Sold out",
  "Error",
  "Read more",
  "Learn more",
  "Sign in",
  "Log in",
  "Sort by",
];

export type TypographyProblem = { rule: "espace" | "euro" | "anglais"; excerpt: string };

const ANY_SPACE = /[ \u00a0\u202f]/;

function around(text: string, index: number, length = 1) {
  return text.slice(Math.max(0, index - 25), index + length + 15).replace(/\s+/g, " ");
}

/** The token (between spaces) around `index`: an address or a time is not a sentence. */
function tokenAt(text: string, index: number) {
  let start = index;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  let end = index;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  return text.slice(start, end);
}

/** Every breach of the rule in this text, with an excerpt around it. */
export function frenchTypographyProblems(text: string): TypographyProblem[] {
  const problems: TypographyProblem[] = [];

  for (const match of text.matchAll(/[!?:;]/g)) {
    const index = match.index;
    const next = text[index + 1];
    // Only a sign that ends a phrase: followed by a space, the end, or a closing sign.
    if (next !== undefined && !/[\s»)"'’.,]/.test(next)) continue;
    const token = tokenAt(text, index);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token) || /^(mailto|tel):/i.test(token)) continue;
    const before = text[index - 1];
    if (before === undefined || ANY_SPACE.test(before)) continue;
    // « ?! », « !! »: the space goes before the first sign only.
    if (/[!?]/.test(before) && ANY_SPACE.test(text[index - 2] ?? "")) continue;
    problems.push({ rule: "espace", excerpt: around(text, index) });
  }

  for (const match of text.matchAll(/€/g)) {
    const index = match.index;
    const head = text.slice(Math.max(0, index - 20), index);
    const amountBefore = /\d(?:,\d{2})?[ \u00a0\u202f]?$/.test(head);
    const decimalPoint = /\d\.\d{1,2}[ \u00a0\u202f]?$/.test(head);
    const amountAfter = /^[ \u00a0\u202f]?\d/.test(text.slice(index + 1));
    // « en € » or « (€) » names the currency: only an amount written the wrong way is a breach.
    if (decimalPoint || (amountAfter && !amountBefore)) problems.push({ rule: "euro", excerpt: around(text, index) });
  }

  for (const word of ENGLISH_UI_WORDS) {
    const pattern = new RegExp(`(?<![\\p{L}\\d])${word.replace(/ /g, "\\s+")}(?![\\p{L}\\d])`, "giu");
    for (const match of text.matchAll(pattern)) {
      problems.push({ rule: "anglais", excerpt: around(text, match.index, match[0].length) });
    }
  }
  return problems;
}
