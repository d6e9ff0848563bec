import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { redirectWithSuccess } from "remix-toast";
import { formatPrice } from "~/lib/money";
import { refundFormSchema } from "~/schemas/refund";
import type { SignedInAdmin } from "~/services/admin-auth.server";
import { refundActorOf, refundOrder } from "~/services/payments/refunds.server";
import { actionError, refusalReply } from "~/http/action-errors.server";

/**
 * The « Rembourser » form of the back office's order page (intent `refund`): the refund, then
 * back to the order (post/redirect/get); a refusal is answered inline with its French message.
 */
export async function refundFormAction(orderId: number, formData: FormData, admin: SignedInAdmin) {
  const submission = parseWithZod(formData, { schema: refundFormSchema });
  if (submission.status !== "success") {
    return data({ refundResult: submission.reply() }, { status: 400 });
  }
  try {
    const { refund } = await refundOrder({
      orderId,
      amountCents: submission.value.amount,
      reason: submission.value.reason,
      actor: refundActorOf(admin),
      idempotencyKey: submission.value.idempotencyKey,
    });
    const done = refund.status === "succeeded";
    return redirectWithSuccess(`/admin/orders/${orderId}`, {
      message: done ? "Remboursement effectué" : "Remboursement en cours",
      description: done
        ? `${formatPrice(refund.amountCents)} remboursés sur la carte du client ; l'avoir est émis et le client est prévenu par email.`
        : `${formatPrice(refund.amountCents)} : Stripe traite le remboursement, son état s'affichera ici.`,
    });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return data({ refundResult: submission.reply(refusalReply(refusal)) }, { status: refusal.status });
  }
}
