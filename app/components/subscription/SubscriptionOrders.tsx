import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import type { SubscriptionPageOrder } from "~/services/subscriptions/customer-page.server";

/**
 * « Vos commandes » of the subscription's page: the first order and every renewal, oldest first,
 * each with where it stands, its tracking page and its invoice (and credit note), opened with the
 * order's own view link: no account needed.
 */
export function SubscriptionOrders({ orders }: { orders: SubscriptionPageOrder[] }) {
  return (
    <section aria-labelledby="commandes" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
      <h2 id="commandes" className="font-serif text-xl">
        Vos commandes et factures
      </h2>
      {orders.length === 0 ? (
        <p className="mt-3 text-ink-soft">Aucune commande pour le moment.</p>
      ) : (
        <ul className="mt-4 divide-y divide-ink/10" data-testid="subscription-orders">
          {orders.map((order) => (
            <li key={order.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-semibold">
                  Commande n°{order.id}
                  <span className="block text-sm font-normal text-ink-soft sm:ml-2 sm:inline">
                    {order.renewalNumber === null ? "Première commande" : `Renouvellement n°${order.renewalNumber}`}
                  </span>
                </p>
                <p className="text-sm text-ink-soft">
                  {formatDate(order.createdAt)} · {formatPrice(order.totalCents)} · {order.progressLabel}
                </p>
              </div>
              <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm font-semibold">
                <a href={order.trackingPath} className="text-rose-700 underline" rel="noreferrer">
                  Suivre la commande<span className="sr-only"> n°{order.id}</span>
                </a>
                {order.invoicePath ? (
                  <a href={order.invoicePath} className="text-rose-700 underline" data-testid="subscription-invoice-link">
                    Facture n°{order.invoiceNumber}
                  </a>
                ) : (
                  <span className="font-normal text-ink-soft">Facture émise au paiement</span>
                )}
                {order.creditNotePath ? (
                  <a href={order.creditNotePath} className="text-rose-700 underline">
                    Avoir n°{order.creditNoteNumber}
                  </a>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
