import { desc } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { AUDIT_ACTION_LABELS, auditDetailsText, type AuditAction, type AuditDetails } from "~/lib/audit";

/** The audit log of what administrators did to customers' personal data (exports, erasures). */

/** Who does it: the signed-in administrator. */
export type AuditActor = { id: number; username: string };

/** One line of the audit log; `details` holds counts only, never a value. */
export async function recordAudit(
  db: DbOrTx,
  actor: AuditActor,
  action: AuditAction,
  subjectId: number,
  details: AuditDetails | null = null,
) {
  await db.insert(auditLog).values({ actorId: actor.id, actorUsername: actor.username, action, subjectId, details });
}

export function auditView(row: typeof auditLog.$inferSelect) {
  return {
    id: row.id,
    at: row.at,
    actor: row.actorUsername,
    actorId: row.actorId,
    action: row.action,
    label: AUDIT_ACTION_LABELS[row.action],
    customerId: row.subjectId,
    details: row.details ?? null,
    detailsText: row.details ? auditDetailsText(row.details) : null,
  };
}

export type AuditView = ReturnType<typeof auditView>;

/** The last lines of the audit log, the most recent first. */
export async function listRecentAudit(limit = 10): Promise<AuditView[]> {
  return (await getDb().select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit)).map(auditView);
}
