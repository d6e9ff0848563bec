/**
 * The first words of a text, for a list: on one line, at most `max` characters, cut at a word
 * boundary when there is one in the last third, with an ellipsis when something was cut.
 */
export function excerpt(text: string, max = 80): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  if (oneLine.length <= max) return oneLine;
  const cut = oneLine.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  const head = space >= Math.floor((max * 2) / 3) ? cut.slice(0, space) : cut;
  return `${head.replace(/[\s,;:.!?-]+$/, "")}…`;
}
