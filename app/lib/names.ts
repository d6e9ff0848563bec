/** People's names: one way to split a full name and one way to show a person's name. */

/** "Marie Claire  Dupont" -> Marie / Claire Dupont: split at the first space, spaces collapsed. */
export function splitFullName(name: string | null | undefined): { firstName: string; lastName: string } {
  const trimmed = (name ?? "").trim().replace(/\s+/g, " ");
  const space = trimmed.indexOf(" ");
  return space === -1
    ? { firstName: trimmed, lastName: "" }
    : { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1) };
}

/** Name to show: first and last name, else the username (when given), else null. */
export function displayName(person: {
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
}): string | null {
  const full = [person.firstName, person.lastName].filter(Boolean).join(" ").trim();
  return full || person.username || null;
}
