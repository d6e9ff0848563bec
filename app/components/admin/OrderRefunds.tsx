import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Badge, buttonDanger, Card, type Tone } from "~/components/admin/ui";
import { FieldError } from "~/components/ui/Field";
import type { RefundStatus } from "~/db/schema";
import { formatDateTime } from "~/lib/dates";
import { centsToDecimal, formatPrice } from "~/lib/money";
import { REFUND_REASON_MAX, refundFormSchema } from "~/schemas/refund";

/** One refund as the order page shows it (services/payments/refunds.server.ts, getOrderRefunds). */
export type OrderRefundRow = {
  id: number;
  createdAt: string;
  amountCents: number;
  reason: string;
  status: RefundStatus;
  actorName: string;
  stripeRefundId: string | null;
  failureMessage: string | null;
  creditNoteNumber: string | null;
};

const STATUS: Record<RefundStatus, { label: string; tone: Tone }> = {
  pending: { label: "En cours", tone: "yellow" },
  succeeded: { label: "Effectué", tone: "green" },
  failed: { label: "Échoué", tone: "red" },
};

/** 1250 -> "12,50", what the amount field shows. */
function eurosField(cents: number): string {
  return centsToDecimal(cents).replace(".", ",");
}

/**
 * The refunds of an order on its back-office page: what was refunded (date, amount, by whom,
 * Stripe's id, status, credit note) and, while something remains to refund on a paid order, the
 * « Rembourser » form (a plain form post, its key drawn when the page was rendered). The page
 * mounts it again for each new key, so that after a refund it starts from what remains.
 */
export function OrderRefunds({
  orderId,
  totalCents,
  refunds,
  refundedCents,
  remainingCents,
  refundable,
  refundKey,
  lastResult,
}: {
  orderId: number;
  totalCents: number;
  refunds: OrderRefundRow[];
  refundedCents: number;
  remainingCents: number;
  refundable: boolean;
  refundKey: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === "refund";
  const [form, fields] = useForm({
    id: `refund-${orderId}`,
    lastResult,
    defaultValue: { amount: eurosField(remainingCents), reason: "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: refundFormSchema }),
  });
  // A refused refund: focus moves to the message that says why (a refund made reports in the toast).
  const refusal = useRef<HTMLParagraphElement>(null);
  const refused = Boolean(form.errors?.length);
  useEffect(() => {
    if (refused) refusal.current?.focus();
  }, [refused, lastResult]);
  const canRefund = refundable && remainingCents > 0;
  if (!refundable && refunds.length === 0) return null;

  return (
    <Card title="Remboursements">
      <dl className="mb-4 grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-ink-soft">Payé</dt>
          <dd className="font-semibold tabular-nums">{formatPrice(totalCents)}</dd>
        </div>
        <div>
          <dt className="text-ink-soft">Remboursé</dt>
          <dd className="font-semibold tabular-nums" data-testid="refunded-amount">
            {formatPrice(refundedCents)}
          </dd>
        </div>
        <div>
          <dt className="text-ink-soft">Reste à rembourser</dt>
          <dd className="font-semibold tabular-nums">{formatPrice(refundable ? remainingCents : 0)}</dd>
        </div>
      </dl>

      {refunds.length === 0 ? (
        <p className="mb-4 text-sm text-ink-soft">Aucun remboursement pour cette commande.</p>
      ) : (
        <ul className="mb-4 divide-y divide-slate-100" data-testid="order-refunds">
          {refunds.map((refund) => (
            <li key={refund.id} className="py-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-semibold tabular-nums">{formatPrice(refund.amountCents)}</span>
                <Badge tone={STATUS[refund.status].tone}>{STATUS[refund.status].label}</Badge>
              </div>
              <p className="mt-1 text-ink-soft">
                Le {formatDateTime(refund.createdAt)}, par {refund.actorName}
                {refund.creditNoteNumber ? ` · avoir ${refund.creditNoteNumber}` : ""}
              </p>
              <p className="mt-1 [overflow-wrap:anywhere]">{refund.reason}</p>
              {refund.stripeRefundId ? (
                <p className="mt-1 font-mono text-xs text-ink-soft [overflow-wrap:anywhere]">Stripe : {refund.stripeRefundId}</p>
              ) : null}
              {refund.status === "failed" && refund.failureMessage ? (
                <p className="mt-1 text-red-800">{refund.failureMessage}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      {canRefund ? (
        <Form method="post" {...getFormProps(form)} className="space-y-3 border-t border-slate-200 pt-4">
          <h3 id="rembourser" className="scroll-mt-6 font-semibold">
            Rembourser
          </h3>
          <input type="hidden" name="intent" value="refund" />
          {/* The page's key, never the one of a previous submission: a new page (after a refund) draws a new one. */}
          <input type="hidden" name={fields.idempotencyKey.name} value={refundKey} />
          {form.errors?.length ? (
            <p
              ref={refusal}
              id={form.errorId}
              role="alert"
              tabIndex={-1}
              className="rounded-lg bg-red-50 p-3 text-sm text-red-800"
            >
              {form.errors.join(" ")}
            </p>
          ) : null}
          <div>
            <label htmlFor={fields.amount.id} className="block text-sm font-medium">
              Montant à rembourser (€)
            </label>
            <input
              {...getInputProps(fields.amount, { type: "text", ariaAttributes: true })}
              key={fields.amount.key}
              inputMode="decimal"
              autoComplete="off"
              className="field-input mt-1"
              aria-describedby={`${fields.amount.id}-hint${fields.amount.errors ? ` ${fields.amount.errorId}` : ""}`}
            />
            <p id={`${fields.amount.id}-hint`} className="mt-1 text-xs text-ink-soft">
              Au plus {formatPrice(remainingCents)}, par exemple 12,50.
            </p>
            <FieldError id={fields.amount.errorId} errors={fields.amount.errors} />
          </div>
          <div>
            <label htmlFor={fields.reason.id} className="block text-sm font-medium">
              Motif
            </label>
            <textarea
              {...getTextareaProps(fields.reason, { ariaAttributes: true })}
              key={fields.reason.key}
              rows={2}
              maxLength={REFUND_REASON_MAX}
              className="field-input mt-1"
            />
            <FieldError id={fields.reason.errorId} errors={fields.reason.errors} />
          </div>
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                {...getInputProps(fields.confirm, { type: "checkbox", ariaAttributes: true })}
                key={fields.confirm.key}
                className="mt-0.5 h-4 w-4"
              />
              <span>
                Je confirme ce remboursement : il est fait tout de suite sur la carte du client et ne peut pas être annulé.
              </span>
            </label>
            <FieldError id={fields.confirm.errorId} errors={fields.confirm.errors} />
          </div>
          <button type="submit" className={`${buttonDanger} w-full`} disabled={submitting}>
            {submitting ? "Remboursement..." : "Rembourser"}
          </button>
        </Form>
      ) : refundable ? null : refunds.some((r) => r.status === "succeeded") ? (
        <p className="text-sm text-ink-soft">Cette commande est entièrement remboursée.</p>
      ) : null}
    </Card>
  );
}

/** The refund form's reply in the order page's action data (its `refundResult`), if the last submission was a refund. */
export function refundReply(data: unknown): SubmissionResult<string[]> | undefined {
  if (!data || typeof data !== "object" || !("refundResult" in data)) return undefined;
  return (data as { refundResult: SubmissionResult<string[]> }).refundResult;
}
