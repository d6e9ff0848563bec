import type { SerializeFrom } from "@remix-run/node";
import { formatDateTime } from "~/lib/dates";
import type { AdminWithdrawal } from "~/services/withdrawals.server";
import { Card } from "./ui";
import { WithdrawalDeadlineBadge } from "./WithdrawalDeadlineBadge";

const HIGHLIGHT = {
  ok: "bg-slate-50 ring-slate-200",
  soon: "bg-amber-50 ring-amber-300",
  overdue: "bg-red-50 ring-red-300",
} as const;

/**
 * The order's online withdrawal (/retractation), if any: when it was made, its reason, and the
 * days left before the refund is due (14 days after the request, article L. 221-24).
 */
export function OrderWithdrawal({ withdrawal }: { withdrawal: SerializeFrom<AdminWithdrawal> | null }) {
  if (!withdrawal) return null;
  return (
    <Card title="Rétractation demandée">
      <div data-testid="order-withdrawal">
        <dl className="space-y-1.5 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-ink-soft">Demandée le</dt>
            <dd className="font-medium tabular-nums" data-testid="order-withdrawal-date">
              {formatDateTime(withdrawal.requestedAt)}
            </dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-ink-soft">Email saisi</dt>
            <dd className="min-w-0 text-right font-medium [overflow-wrap:anywhere]">{withdrawal.email}</dd>
          </div>
          <div>
            <dt className="text-ink-soft">Motif</dt>
            <dd className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]" data-testid="order-withdrawal-reason">
              {withdrawal.reason ?? <span className="text-ink-soft">Aucun motif indiqué</span>}
            </dd>
          </div>
        </dl>
        <div className={`mt-4 rounded-lg p-3 text-sm ring-1 ${HIGHLIGHT[withdrawal.refunded ? "ok" : withdrawal.urgency]}`}>
          {withdrawal.refunded ? (
            <p className="font-medium text-emerald-800">Commande remboursée : la rétractation est traitée.</p>
          ) : (
            <>
              <p className="flex flex-wrap items-center justify-between gap-2">
                <span>Remboursement à faire avant le {formatDateTime(withdrawal.deadline)}</span>
                <WithdrawalDeadlineBadge urgency={withdrawal.urgency} label={withdrawal.label} />
              </p>
              <p className="mt-2 text-xs text-ink-soft">
                14 jours après la demande (article L. 221-24 du Code de la consommation), par le même moyen de paiement.
              </p>
            </>
          )}
        </div>
      </div>
    </Card>
  );
}
