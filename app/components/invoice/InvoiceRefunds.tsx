import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";

export type InvoiceRefundRow = {
  id: number;
  createdAt: string;
  amountCents: number;
  creditNoteNumber: string | null;
  creditNotePath?: string | null;
};

/** The refunds made on the invoiced order, each with its credit note, under the invoice (hidden when printing). */
export function InvoiceRefunds({ refunds }: { refunds: InvoiceRefundRow[] }) {
  if (refunds.length === 0) return null;
  const total = refunds.reduce((sum, r) => sum + r.amountCents, 0);
  return (
    <section
      className="mx-auto mt-4 max-w-3xl rounded-lg bg-white p-5 text-sm shadow-sm sm:px-10 print:hidden"
      aria-labelledby="invoice-refunds-title"
      data-testid="invoice-refunds"
    >
      <h2 id="invoice-refunds-title" className="font-semibold">
        Remboursements
      </h2>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-left">
          <thead className="text-ink-soft">
            <tr>
              <th scope="col" className="py-1 pr-4 font-medium">
                Date
              </th>
              <th scope="col" className="py-1 pr-4 text-right font-medium">
                Montant
              </th>
              <th scope="col" className="py-1 font-medium">
                Avoir
              </th>
            </tr>
          </thead>
          <tbody>
            {refunds.map((r) => (
              <tr key={r.id} className="border-t border-slate-200">
                <td className="py-1.5 pr-4 tabular-nums">{formatDate(r.createdAt)}</td>
                <td className="py-1.5 pr-4 text-right tabular-nums">{formatPrice(r.amountCents)}</td>
                <td className="py-1.5">
                  {r.creditNoteNumber && r.creditNotePath ? (
                    <a href={r.creditNotePath} className="font-medium underline">
                      {r.creditNoteNumber}
                    </a>
                  ) : (
                    (r.creditNoteNumber ?? "-")
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-3">
        Total remboursé : <strong className="tabular-nums">{formatPrice(total)}</strong>
      </p>
    </section>
  );
}
