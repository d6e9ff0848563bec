import { formatDateTime } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { AddressBlock, Button, DetailRows, Heading, OrderLines, SubHeading } from "./parts";
import { addressText, footerText, heading, oneLine, orderLinesText, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

/** To the shop: an order has been paid. */
export type ShopNewOrderData = { shop: EmailShop; order: EmailOrder };

export function shopNewOrderSubject(order: Pick<EmailOrder, "id">) {
  return `Nouvelle commande payée n°${order.id}`;
}

const formula = (order: EmailOrder) => (order.isSubscription ? "Abonnement (toutes les 4 semaines)" : "Achat unique");
const adminUrl = (data: ShopNewOrderData) => `${data.shop.publicUrl}/admin/orders/${data.order.id}`;

function ShopNewOrderEmail(data: ShopNewOrderData) {
  const { shop, order } = data;
  return (
    <EmailLayout
      shop={shop}
      title={shopNewOrderSubject(order)}
      preheader={`${order.customerName} : ${formatPrice(order.totalCents)}, ${formula(order).toLowerCase()}.`}
    >
      <Heading>Nouvelle commande payée n°{order.id}</Heading>
      <DetailRows
        rows={[
          ["Client", order.customerName],
          ["Email", order.customerEmail ?? "-"],
          ["Formule", formula(order)],
          ["Payée le", formatDateTime(order.paidAt ?? order.createdAt)],
        ]}
      />
      <OrderLines order={order} />
      <SubHeading>Livraison</SubHeading>
      <AddressBlock order={order} />
      <Button href={adminUrl(data)}>Voir la commande</Button>
    </EmailLayout>
  );
}

export function shopNewOrderEmail(data: ShopNewOrderData): EmailContent {
  const { shop, order } = data;
  const text = paragraphs(
    `Nouvelle commande payée n°${order.id}`,
    `Client : ${oneLine(order.customerName)}\nEmail : ${oneLine(order.customerEmail ?? "-")}\nFormule : ${formula(order)}\nPayée le : ${formatDateTime(order.paidAt ?? order.createdAt)}`,
    orderLinesText(order),
    heading("Livraison"),
    addressText(order),
    `Voir la commande : ${adminUrl(data)}`,
    footerText(shop),
  );
  return { subject: shopNewOrderSubject(order), html: htmlDocument(<ShopNewOrderEmail {...data} />), text };
}
