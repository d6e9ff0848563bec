import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useHydrated } from "~/components/admin/ui";
import type { InvoiceKind, PaymentStatus } from "~/db/schema";
import { PAYMENT_STATE_WORDS } from "~/lib/order-status";
import { InvoiceDocument, InvoiceToolbar, type InvoiceDocumentView } from "./InvoiceDocument";
import { InvoiceRefunds, type InvoiceRefundRow } from "./InvoiceRefunds";

const MISSING: Record<InvoiceKind, string> = {
  invoice: "Aucune facture n'a été émise pour cette commande : la facture est émise au paiement, jamais avant.",
  credit_note: "Aucun avoir n'a été émis pour cette commande : un avoir est émis quand une commande payée est remboursée.",
};

/** The back office's printable invoice or credit note of an order. */
export function AdminInvoicePage({
  orderId,
  kind,
  document,
  paymentStatus,
  refunds = [],
}: {
  orderId: number;
  kind: InvoiceKind;
  document: SerializeFrom<InvoiceDocumentView> | null;
  paymentStatus: PaymentStatus;
  refunds?: InvoiceRefundRow[];
}) {
  const hydrated = useHydrated();
  const back = (
    <Link to={`/admin/orders/${orderId}`} className="text-sm font-medium underline">
      ← Retour à la commande
    </Link>
  );
  return (
    <div className="min-h-screen bg-slate-100 px-4 py-6 print:bg-white print:p-0">
      {document ? (
        <>
          <InvoiceToolbar back={back} hydrated={hydrated} kind={kind} />
          <InvoiceDocument invoice={document as InvoiceDocumentView} />
          {kind === "invoice" ? <InvoiceRefunds refunds={refunds} /> : null}
        </>
      ) : (
        <div className="mx-auto max-w-2xl rounded-xl bg-white p-6 shadow-sm" data-testid="invoice-missing">
          <h1 className="text-xl font-semibold">{kind === "invoice" ? "Pas de facture" : "Pas d'avoir"}</h1>
          <p className="mt-2">{MISSING[kind]}</p>
          <p className="mt-2 text-sm text-ink-soft">
            Paiement de la commande #{orderId} : {PAYMENT_STATE_WORDS[paymentStatus]}.
          </p>
          <p className="mt-4">{back}</p>
        </div>
      )}
    </div>
  );
}
