import type { InvoiceDocument as InvoiceContent, InvoiceKind } from "~/db/schema";
import { addressLines, companyDescription } from "~/lib/company";
import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { formatVatRate } from "~/lib/vat";

/** An invoice or a credit note as issued (services/invoices.server.ts), for the screen and the printer. */
export type InvoiceDocumentView = { kind: InvoiceKind; number: string; issuedAt: string; document: InvoiceContent };

const TITLE: Record<InvoiceKind, string> = { invoice: "Facture", credit_note: "Avoir" };

/** The toolbar above the document (hidden when printing): a way back, and the print button. */
export function InvoiceToolbar({ back, hydrated, kind }: { back: React.ReactNode; hydrated: boolean; kind: InvoiceKind }) {
  return (
    <div className="mx-auto mb-4 flex max-w-3xl flex-wrap items-center justify-between gap-3 print:hidden">
      {back}
      {hydrated ? (
        <button
          type="button"
          onClick={() => window.print()}
          className="rounded-lg bg-ink px-4 py-2 text-sm font-semibold text-white"
        >
          {kind === "invoice" ? "Imprimer ou enregistrer la facture (PDF)" : "Imprimer ou enregistrer l'avoir (PDF)"}
        </button>
      ) : (
        <p className="text-sm text-ink-soft">
          Imprimez cette page ou enregistrez-la en PDF avec la commande Imprimer de votre navigateur (Ctrl+P).
        </p>
      )}
    </div>
  );
}

/**
 * The document: the seller's identity, the buyer and the billing address, each line with its
 * unit price before VAT, quantity, VAT rate and amounts, then the totals before VAT, VAT and
 * including VAT (Code de commerce L441-9). Plain black on white.
 */
export function InvoiceDocument({ invoice }: { invoice: InvoiceDocumentView }) {
  const { document: doc, kind } = invoice;
  const credit = kind === "credit_note";
  const { seller, buyer, totals } = doc;
  const rates = [...new Set(doc.lines.map((l) => l.rateBp))];
  // « société par actions simplifiée au capital de 10 000 € » (Code de commerce R123-237).
  const legalForm = companyDescription({
    legalName: "",
    legalForm: seller.legalForm ?? "",
    shareCapital: seller.shareCapital ?? "",
  });
  return (
    <article
      className="mx-auto max-w-3xl bg-white p-5 text-sm text-black shadow-sm sm:p-10 print:max-w-none print:p-0 print:shadow-none"
      data-testid="invoice-document"
      aria-labelledby="invoice-title"
    >
      <header className="flex flex-wrap justify-between gap-6 border-b border-slate-300 pb-6">
        <div data-testid="invoice-seller">
          <p className="font-serif text-2xl">{seller.legalName}</p>
          {legalForm ? <p data-testid="invoice-legal-form">{legalForm}</p> : null}
          <p className="mt-2">
            {addressLines(seller.address).map((line, i) => (
              <span key={i} className="block">
                {line}
              </span>
            ))}
          </p>
          {seller.rcs ? <p className="mt-2">{seller.rcs}</p> : null}
          {seller.siren ? <p className={seller.rcs ? undefined : "mt-2"}>SIREN : {seller.siren}</p> : null}
          {seller.siret ? <p>SIRET : {seller.siret}</p> : null}
          {seller.vatNumber ? <p>N° de TVA intracommunautaire : {seller.vatNumber}</p> : null}
          <p className="mt-2">{seller.email}</p>
          <p>{seller.phone}</p>
        </div>
        <div className="sm:text-right">
          <h1 id="invoice-title" className="text-2xl font-semibold">
            {TITLE[kind]} n°&nbsp;
            <span className="whitespace-nowrap" data-testid="invoice-number">
              {invoice.number}
            </span>
          </h1>
          <p className="mt-2">Date d'émission : {formatDate(invoice.issuedAt)}</p>
          <p>
            Commande n°&nbsp;{doc.orderId} du {formatDate(doc.orderedAt)}
          </p>
          {credit && doc.invoiceNumber ? (
            <p className="font-semibold" data-testid="credited-invoice">
              Avoir sur la facture n°&nbsp;{doc.invoiceNumber}
              {doc.invoiceIssuedAt ? ` du ${formatDate(doc.invoiceIssuedAt)}` : ""}
            </p>
          ) : (
            <p>Payée le {formatDate(doc.paidAt)}</p>
          )}
        </div>
      </header>

      <section className="border-b border-slate-300 py-6" aria-labelledby="invoice-buyer">
        <h2 id="invoice-buyer" className="font-semibold uppercase tracking-wide text-slate-600">
          Facturé à
        </h2>
        <p className="mt-2 font-medium">{buyer.name}</p>
        {buyer.address ? <p>{buyer.address}</p> : null}
        {buyer.address2 ? <p>{buyer.address2}</p> : null}
        {buyer.postalCode || buyer.city ? <p>{[buyer.postalCode, buyer.city].filter(Boolean).join(" ")}</p> : null}
        {buyer.country ? <p>{buyer.country}</p> : null}
        {buyer.email ? <p className="mt-1">{buyer.email}</p> : null}
      </section>

      {/* On a phone, each line as a short list; the table from 640 px and on paper. */}
      <ul
        className="mt-6 divide-y divide-slate-200 border-y border-slate-300 sm:hidden print:hidden"
        aria-label={credit ? "Lignes créditées" : "Lignes de la facture"}
      >
        {doc.lines.map((line, i) => (
          <li key={i} className="py-3">
            <p className="font-medium">
              {line.label}
              {line.detail ? <span className="block text-xs font-normal text-slate-600">{line.detail}</span> : null}
            </p>
            <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-4 text-xs">
              <dt>Quantité</dt>
              <dd className="text-right tabular-nums">{line.quantity}</dd>
              <dt>Prix unitaire HT</dt>
              <dd className="text-right tabular-nums">{formatPrice(line.unitExcludingCents)}</dd>
              <dt>Montant HT</dt>
              <dd className="text-right tabular-nums">{formatPrice(line.excludingCents)}</dd>
              <dt>TVA {formatVatRate(line.rateBp)}</dt>
              <dd className="text-right tabular-nums">{formatPrice(line.vatCents)}</dd>
              <dt className="font-semibold">Montant TTC</dt>
              <dd className="text-right font-semibold tabular-nums">{formatPrice(line.includingCents)}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <div className="mt-6 hidden sm:block print:block">
        <table className="w-full text-left text-sm" data-testid="invoice-lines">
          <caption className="sr-only">{credit ? "Lignes créditées" : "Lignes de la facture"}</caption>
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-2">
                Désignation
              </th>
              <th scope="col" className="px-2 py-2 text-right">
                Qté
              </th>
              <th scope="col" className="px-2 py-2 text-right">
                Prix unitaire HT
              </th>
              <th scope="col" className="px-2 py-2 text-right">
                Taux TVA
              </th>
              <th scope="col" className="px-2 py-2 text-right">
                Montant HT
              </th>
              <th scope="col" className="px-2 py-2 text-right">
                TVA
              </th>
              <th scope="col" className="py-2 pl-2 text-right">
                Montant TTC
              </th>
            </tr>
          </thead>
          <tbody>
            {doc.lines.map((line, i) => (
              <tr key={i} className="border-b border-slate-200 align-top">
                <td className="py-2 pr-2">
                  {line.label}
                  {line.detail ? <span className="block text-xs text-slate-600">{line.detail}</span> : null}
                </td>
                <td className="px-2 py-2 text-right tabular-nums">{line.quantity}</td>
                <td className="whitespace-nowrap px-2 py-2 text-right tabular-nums">{formatPrice(line.unitExcludingCents)}</td>
                <td className="whitespace-nowrap px-2 py-2 text-right tabular-nums">{formatVatRate(line.rateBp)}</td>
                <td className="whitespace-nowrap px-2 py-2 text-right tabular-nums">{formatPrice(line.excludingCents)}</td>
                <td className="whitespace-nowrap px-2 py-2 text-right tabular-nums">{formatPrice(line.vatCents)}</td>
                <td className="whitespace-nowrap py-2 pl-2 text-right tabular-nums">{formatPrice(line.includingCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <dl className="ml-auto mt-6 w-full max-w-xs space-y-1" data-testid="invoice-totals">
        <div className="flex justify-between gap-4">
          <dt>Total HT</dt>
          <dd className="tabular-nums" data-testid="invoice-total-excluding">
            {formatPrice(totals.excludingCents)}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt>TVA {rates.length === 1 ? formatVatRate(rates[0]) : ""}</dt>
          <dd className="tabular-nums" data-testid="invoice-total-vat">
            {formatPrice(totals.vatCents)}
          </dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-slate-300 pt-2 text-base font-semibold">
          <dt>{credit ? "Total remboursé TTC" : "Total TTC"}</dt>
          <dd className="tabular-nums" data-testid="invoice-total-including">
            {formatPrice(totals.includingCents)}
          </dd>
        </div>
      </dl>

      <div className="mt-8 space-y-1 text-xs text-slate-600">
        {credit ? (
          <p>
            Cet avoir annule {doc.refund?.partial ? "en partie " : ""}la facture n°&nbsp;{doc.invoiceNumber} : la commande
            n°&nbsp;{doc.orderId} a été remboursée de {formatPrice(totals.includingCents)}, par le moyen de paiement utilisé.
          </p>
        ) : (
          <p>
            Facture acquittée : {formatPrice(totals.includingCents)} payés par carte bancaire le {formatDate(doc.paidAt)}. Aucun
            escompte pour paiement anticipé.
          </p>
        )}
        <p>Montants en euros. TVA calculée sur chaque ligne à partir du prix TTC, arrondie au centime le plus proche.</p>
      </div>
    </article>
  );
}
