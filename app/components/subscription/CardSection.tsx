import { Form, Link, useActionData, useLocation, useNavigation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useShopStripe } from "~/components/checkout/useShopStripe";
import { useHydrated } from "~/components/ui/useHydrated";
import { SUBSCRIPTION_ACTION_BUTTONS } from "~/lib/subscription-actions";

/**
 * « Carte de paiement » on /mon-abonnement: the card the renewals are charged to, and
 * « Changer de carte ». The button is a plain form (`card-start`); the page's script marks it
 * (`js=1`), so that without JavaScript the answer says plainly that the card form needs it. With
 * it, the answer's client secret opens the card form (Stripe.js, loaded here only).
 */

export const CARD_ANCHOR = "carte";

export type CardSectionProps = {
  /** « Visa •••• 3155 », or null when the shop does not know it (the card of the first payment). */
  card: string | null;
  pastDue: boolean;
  billing: { name: string; address: string; postalCode: string; city: string; email: string };
};

type CardActionData = { cardSetup?: { clientSecret: string } | null; cardProblem?: string | null } | undefined;

const CardSetupForm = lazy(() => import("./CardSetupForm").then((m) => ({ default: m.CardSetupForm })));

export function CardSection({ card, pastDue, billing }: CardSectionProps) {
  const actionData = useActionData() as CardActionData;
  const navigation = useNavigation();
  const location = useLocation();
  const hydrated = useHydrated();
  const starting = navigation.state !== "idle" && navigation.formData?.get("intent") === "card-start";
  const clientSecret = actionData?.cardSetup?.clientSecret ?? null;
  return (
    <section
      id={CARD_ANCHOR}
      aria-labelledby="carte-titre"
      className="scroll-mt-24 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5"
      data-testid="subscription-card"
    >
      <h2 id="carte-titre" className="font-serif text-xl">
        Carte de paiement
      </h2>
      <p className="mt-2 font-semibold" data-testid="subscription-card-label">
        {card ? (
          <>
            Carte enregistrée : <span className="whitespace-nowrap">{card}</span>
          </>
        ) : (
          "La carte de votre premier paiement"
        )}
      </p>
      <p className="mt-1 text-sm text-ink-soft">
        Les renouvellements sont prélevés sur cette carte.
        {pastDue ? " Le renouvellement en attente sera réglé aussitôt sur la nouvelle carte." : null}
      </p>
      {clientSecret && hydrated ? (
        <div className="mt-4">
          <CardSetupStep clientSecret={clientSecret} billing={billing} />
        </div>
      ) : (
        <Form method="post" action={`${location.pathname}${location.search}#${CARD_ANCHOR}`} className="mt-4">
          <input type="hidden" name="intent" value="card-start" />
          {/* Set by the page's script only: without JavaScript, the card form cannot work. */}
          {hydrated ? <input type="hidden" name="js" value="1" /> : null}
          <button type="submit" className="btn-secondary w-full sm:w-auto" disabled={starting}>
            {starting ? "Ouverture du formulaire..." : SUBSCRIPTION_ACTION_BUTTONS.change_card}
          </button>
        </Form>
      )}
      {actionData?.cardProblem ? (
        <div
          role="alert"
          data-testid="card-problem"
          className="mt-4 rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-700"
        >
          <p>{actionData.cardProblem}</p>
          <Link to="/contact" className="mt-2 inline-block font-semibold underline">
            Nous contacter
          </Link>
        </div>
      ) : null}
    </section>
  );
}

function CardSetupStep({ clientSecret, billing }: { clientSecret: string; billing: CardSectionProps["billing"] }) {
  const { stripe, loadFailed, demo } = useShopStripe();
  const loading = (
    <p role="status" className="py-6 text-center text-sm text-ink-soft">
      Chargement du formulaire sécurisé...
    </p>
  );
  if (loadFailed) {
    return (
      <div role="alert" className="rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-700">
        Le formulaire de carte n'a pas pu se charger. Veuillez rafraîchir la page.
      </div>
    );
  }
  if (!stripe) return loading;
  return (
    <Suspense fallback={loading}>
      <CardSetupForm clientSecret={clientSecret} billing={billing} stripe={stripe} demo={demo} />
    </Suspense>
  );
}
