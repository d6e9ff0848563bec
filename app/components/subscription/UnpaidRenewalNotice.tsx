import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import type { UnpaidRenewal } from "~/services/subscriptions/customer-page.server";

/**
 * A renewal whose payment failed, on the subscription's page: what is owed, what happens next
 * (Stripe's own retries, then the end of the subscription), and that paying it here stops the
 * retries, so the customer never fears being charged twice.
 */
export function UnpaidRenewalNotice({ unpaid, payPath }: { unpaid: UnpaidRenewal; payPath: string }) {
  const which = unpaid.dueAt
    ? `renouvellement n°${unpaid.renewalNumber} du ${formatDate(unpaid.dueAt)}`
    : `renouvellement n°${unpaid.renewalNumber}`;
  return (
    <section
      role="alert"
      aria-labelledby="paiement-attente"
      className="rounded-2xl border border-rose-200 bg-rose-50 p-6"
      data-testid="subscription-unpaid"
    >
      <h2 id="paiement-attente" className="font-serif text-xl text-rose-700">
        Votre dernier renouvellement n'a pas pu être prélevé
      </h2>
      <p className="mt-2 font-semibold text-ink" data-testid="subscription-amount-due">
        Montant dû : {formatPrice(unpaid.amountCents)}, {which}.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-ink-soft">
        <li>
          Notre prestataire de paiement, Stripe, retente automatiquement le prélèvement sur votre carte dans les jours qui
          viennent.
        </li>
        <li>
          Vous pouvez aussi le régler dès maintenant, avec la carte de votre choix. Une fois réglé, plus aucune tentative n'a lieu
          : ce montant n'est jamais prélevé deux fois.
        </li>
        <li>
          Sans paiement à l'issue de ces tentatives, votre abonnement est résilié automatiquement et vous en êtes informé par
          email.
        </li>
        <li>
          Votre colis est préparé dès le paiement reçu.
          {unpaid.nextAfterPaymentAt ? ` Le renouvellement suivant aura lieu le ${formatDate(unpaid.nextAfterPaymentAt)}.` : null}
        </li>
      </ul>
      <a href={payPath} className="btn-primary mt-4 inline-flex" data-testid="subscription-pay-link">
        Régler {formatPrice(unpaid.amountCents)}
      </a>
    </section>
  );
}
