/**
 * What an erased customer's personal data is replaced with (services/customers/erase.server.ts):
 * the account's email and username become placeholders, the texts « [effacé] ».
 */

export const ERASED = "[effacé]";
export const ERASED_HTML = "<p>[effacé]</p>";
/** The last error of an email erased before it was sent (it is marked failed, so it never leaves). */
export const ERASED_UNSENT = "Effacé à la demande du client avant son envoi.";

/** The non-personal email address an erased account (and its orders, subscriptions and requests) gets: unique, and never deliverable (.invalid). */
export function erasedEmail(id: number): string {
  return `efface-${id}@anonyme.invalid`;
}

export function erasedUsername(id: number): string {
  return `efface-${id}`;
}

/** Whether an account has been erased (its email is the placeholder). */
export function isErased(user: { id: number; email: string }): boolean {
  return user.email === erasedEmail(user.id);
}
