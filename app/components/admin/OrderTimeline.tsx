import type { FulfilmentStatus } from "~/db/schema";
import { formatDateTime } from "~/lib/dates";
import { FULFILMENT_STEPS, fulfilmentStep, visibleTrackingNumber } from "~/lib/order-status";

const WAITING: Record<FulfilmentStatus, string> = {
  pending: "En attente",
  processing: "En attente de préparation",
  shipped: "En attente d'expédition",
  delivered: "En attente de livraison",
};

/** The four steps; a step is green once the order has reached it. */
export function OrderTimeline({
  status,
  trackingNumber,
  createdAt,
}: {
  status: FulfilmentStatus;
  trackingNumber: string | null;
  createdAt: string;
}) {
  const current = fulfilmentStep(status);
  const tracking = visibleTrackingNumber(trackingNumber);
  const reachedText: Record<FulfilmentStatus, React.ReactNode> = {
    pending: `Commande enregistrée le ${formatDateTime(createdAt)}`,
    processing: "La commande est en cours de préparation",
    shipped: tracking ? (
      <>
        Numéro de suivi:{" "}
        <span className="whitespace-nowrap font-medium" data-testid="admin-tracking-number">
          {tracking}
        </span>
      </>
    ) : (
      "Expédié sans numéro de suivi"
    ),
    delivered: "La commande a été livrée",
  };
  return (
    <ol className="relative space-y-5" aria-label="Suivi de la commande">
      {FULFILMENT_STEPS.map((step, index) => {
        const reached = index + 1 <= current;
        const isCurrent = index + 1 === current;
        return (
          <li
            key={step.status}
            className="flex gap-3"
            aria-current={isCurrent ? "step" : undefined}
            data-reached={reached ? "true" : "false"}
          >
            <span
              aria-hidden="true"
              className={`mt-0.5 flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                reached ? "bg-emerald-600 text-white" : "bg-slate-200 text-slate-500"
              }`}
            >
              {reached ? "✓" : index + 1}
            </span>
            <div>
              <p className={`font-semibold ${reached ? "text-emerald-800" : "text-slate-500"}`}>
                {step.label}
                <span className="sr-only">{reached ? " (étape atteinte)" : " (à venir)"}</span>
              </p>
              <p className={`text-sm ${reached ? "text-ink" : "text-slate-500"}`}>
                {reached ? reachedText[step.status] : WAITING[step.status]}
              </p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
