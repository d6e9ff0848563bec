import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { InvoiceKind } from "~/db/schema";
import { InvoiceDocument, InvoiceToolbar, type InvoiceDocumentView } from "./InvoiceDocument";
import { InvoiceRefunds, type InvoiceRefundRow } from "./InvoiceRefunds";

type Props = {
  kind: InvoiceKind;
  orderId: number;
  orderKey: string;
  paid: boolean;
  document: SerializeFrom<InvoiceDocumentView> | null;
  hasCreditNote: boolean;
  /** The refunds made on the order (shown under the invoice). */
  refunds?: InvoiceRefundRow[];
};

/** The customer's invoice or credit note, opened from an email's link; a clear message while it is not issued. */
export function CustomerInvoicePage({ kind, orderId, orderKey, paid, document, hasCreditNote, refunds = [] }: Props) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const trackHref = `/track-order?id=${orderId}&cle=${encodeURIComponent(orderKey)}`;
  const back = (
    <span className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <Link to={trackHref} className="font-medium underline">
        ← Suivre ma commande n°{orderId}
      </Link>
      {kind === "invoice" && hasCreditNote ? (
        <Link to={`/avoir/${orderId}?cle=${encodeURIComponent(orderKey)}`} className="font-medium underline">
          Voir l'avoir
        </Link>
      ) : null}
      {kind === "credit_note" ? (
        <Link to={`/facture/${orderId}?cle=${encodeURIComponent(orderKey)}`} className="font-medium underline">
          Voir la facture
        </Link>
      ) : null}
    </span>
  );
  if (!document) {
    const message =
      kind === "invoice"
        ? paid
          ? "Votre facture est en cours d'émission : actualisez cette page dans un instant."
          : "Paiement non reçu : votre facture sera disponible dès que le paiement de votre commande aura été reçu."
        : "Aucun avoir n'a été émis pour cette commande : un avoir accompagne le remboursement d'une commande.";
    return (
      <div className="container-page py-10 md:py-16">
        <div className="mx-auto max-w-2xl rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5" data-testid="invoice-missing">
          <h1 className="font-serif text-2xl">
            {kind === "invoice" ? `Facture de la commande n°${orderId}` : `Avoir de la commande n°${orderId}`}
          </h1>
          <p role="status" className="mt-3 text-ink-soft">
            {message}
          </p>
          <p className="mt-4">{back}</p>
        </div>
      </div>
    );
  }
  return (
    <div className="bg-slate-100 px-4 py-6 print:bg-white print:p-0">
      <InvoiceToolbar back={back} hydrated={hydrated} kind={kind} />
      <InvoiceDocument invoice={document as InvoiceDocumentView} />
      {kind === "invoice" ? <InvoiceRefunds refunds={refunds} /> : null}
    </div>
  );
}
