import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { formatDateTime } from "~/lib/dates";
import type { OpenWithdrawal } from "~/services/withdrawals.server";
import { Card } from "./ui";
import { WithdrawalDeadlineBadge } from "./WithdrawalDeadlineBadge";

const ROW = { ok: "", soon: "bg-amber-50", overdue: "bg-red-50" } as const;

/** The dashboard's « Rétractations à traiter »: the withdrawals whose order is not refunded yet, the oldest first, and how many in all. */
export function WithdrawalsToProcess({ withdrawals, total }: { withdrawals: SerializeFrom<OpenWithdrawal>[]; total: number }) {
  return (
    <Card title="Rétractations à traiter">
      {withdrawals.length === 0 ? (
        <p className="py-4 text-center text-ink-soft">Aucune rétractation en attente de remboursement</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="withdrawals-to-process">
          {withdrawals.map((w) => (
            <li key={w.orderId} className={`rounded-lg ${ROW[w.urgency]}`} data-urgency={w.urgency}>
              <Link
                to={`/admin/orders/${w.orderId}`}
                className="flex flex-wrap items-center justify-between gap-2 px-2 py-3 hover:bg-slate-50"
              >
                <span className="min-w-0">
                  <span className="font-semibold">Commande #{w.orderId}</span>
                  <span className="ml-2 text-sm">{w.customer}</span>
                  <span className="block text-xs text-ink-soft">Demandée le {formatDateTime(w.requestedAt)}</span>
                </span>
                <WithdrawalDeadlineBadge urgency={w.urgency} label={w.label} />
              </Link>
            </li>
          ))}
        </ul>
      )}
      {total > withdrawals.length ? (
        <p className="pt-3 text-sm text-ink-soft" data-testid="withdrawals-more">
          Les {withdrawals.length} plus anciennes sur {total} : les suivantes apparaissent ici à mesure que vous remboursez.
        </p>
      ) : null}
    </Card>
  );
}
