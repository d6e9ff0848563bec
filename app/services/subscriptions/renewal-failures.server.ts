import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { renewalFailures } from "~/db/schema";

/**
 * The renewals whose payment failed or waited for the customer's authentication, kept for the
 * analytics (renewal success rate, failed renewals recovered): one row per Stripe invoice, with
 * its first failure and, once it is paid after all, when. Written in the webhook's transaction.
 */

/** A renewal invoice's payment failed (or needs authentication): the first failure is kept. */
export async function noteRenewalFailure(tx: DbOrTx, subscriptionId: number, invoiceId: string, at: string) {
  await tx.insert(renewalFailures).values({ stripeInvoiceId: invoiceId, subscriptionId, failedAt: at }).onConflictDoNothing();
}

/** A renewal invoice was paid: if it had failed, it is recovered (once). */
export async function noteRenewalPaid(tx: DbOrTx, invoiceId: string, at: string) {
  await tx
    .update(renewalFailures)
    .set({ recoveredAt: at })
    .where(and(eq(renewalFailures.stripeInvoiceId, invoiceId), isNull(renewalFailures.recoveredAt)));
}
