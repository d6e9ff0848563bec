/** What the back office says in place of an email's content once the retention deleted it (services/email/retention.server.ts). */
export function purgedContentNotice(days: number) {
  return `Contenu supprimé après ${days} jours (conservation)`;
}
