import { CLOSURE_LABELS, type OrderClosure } from "~/lib/order-status";
import { formatPrice, shippingLabel } from "~/lib/money";
import { formatFrenchPhone } from "~/lib/phone";
import type { OrderSummary } from "~/services/orders/summary.server";

/** Pieces shared by the confirmation and tracking pages. */

/**
 * The delivery address. The name and the street are there only for the order's owner (the
 * order number alone shows the postcode, the city and the country).
 */
export function ShippingAddress({
  order,
}: {
  order: Pick<OrderSummary, "customerName" | "shippingAddress" | "shippingPostalCode" | "shippingCity" | "shippingCountry"> &
    Partial<Pick<OrderSummary, "shippingAddress2" | "shippingPhone">>;
}) {
  return (
    <address className="not-italic leading-relaxed text-ink-soft" data-testid="shipping-address">
      {order.customerName ? (
        <>
          <span data-testid="shipping-name">{order.customerName}</span>
          <br />
        </>
      ) : null}
      {order.shippingAddress ? (
        <>
          <span data-testid="shipping-street">{order.shippingAddress}</span>
          <br />
        </>
      ) : null}
      {order.shippingAddress2 ? (
        <>
          <span data-testid="shipping-address2">{order.shippingAddress2}</span>
          <br />
        </>
      ) : null}
      {[order.shippingPostalCode, order.shippingCity].filter(Boolean).join(" ") || "-"}
      <br />
      {order.shippingCountry || "France"}
      {order.shippingPhone ? (
        <>
          <br />
          Téléphone : <span data-testid="shipping-phone">{formatFrenchPhone(order.shippingPhone)}</span>
        </>
      ) : null}
    </address>
  );
}

/**
 * Confirmation page badge (spec section 4): 'Payée' when paid, anything else 'En attente'; a
 * closed order (refunded in full, withdrawn) shows its final state alone.
 */
export function PaymentBadge({ paid, closure = null }: { paid: boolean; closure?: OrderClosure | null }) {
  const tone = closure ? "bg-ink/5 text-ink" : paid ? "bg-sage-100 text-sage-700" : "bg-amber-100 text-amber-800";
  return (
    <span
      data-testid="order-status-badge"
      className={`inline-flex items-center rounded-full px-3 py-1 text-sm font-semibold ${tone}`}
    >
      {closure ? CLOSURE_LABELS[closure] : paid ? "Payée" : "En attente"}
    </span>
  );
}

export function OrderItemsTable({ order }: { order: OrderSummary }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Articles commandés</caption>
      <thead>
        <tr className="border-b border-ink/10 text-ink-soft">
          <th scope="col" className="py-2 font-medium">
            Produit
          </th>
          <th scope="col" className="py-2 text-center font-medium">
            Quantité
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Prix
          </th>
        </tr>
      </thead>
      <tbody>
        {order.items.map((item) => (
          <tr key={item.id} className="border-b border-ink/5 align-top">
            <td className="py-3">
              <span className="font-medium text-ink">{item.productName}</span>
              {item.variantName ? <span className="block text-ink-soft">{item.variantName}</span> : null}
            </td>
            <td className="py-3 text-center">{item.quantity}</td>
            <td className="py-3 text-right">{formatPrice(item.lineTotalCents)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={2} className="pt-3 font-normal text-ink-soft">
            Sous-total
          </th>
          <td className="pt-3 text-right">{formatPrice(order.subtotalCents)}</td>
        </tr>
        <tr>
          <th scope="row" colSpan={2} className="pt-1 font-normal text-ink-soft">
            Livraison
          </th>
          <td className="pt-1 text-right font-medium text-sage-700">{shippingLabel(order.shippingCents)}</td>
        </tr>
        <tr className="text-base font-semibold">
          <th scope="row" colSpan={2} className="pt-2">
            Total
          </th>
          <td className="pt-2 text-right" data-testid="order-total">
            {formatPrice(order.totalCents)}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
