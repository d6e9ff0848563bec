import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { ShippingAddress } from "~/components/cart/OrderParts";
import { Field } from "~/components/ui/Field";
import { actionError } from "~/http/action-errors.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { readOrderProof } from "~/http/order-proof.server";
import { pageHeaders, retryAfterHeaders } from "~/http/retry-after";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { CARRIER_LABELS } from "~/lib/carriers";
import { FULFILMENT_STEPS, PAYMENT_STATE_WORDS, fulfilmentStep, paymentReceived } from "~/lib/order-status";
import { parseOrderNumber, trackingSchema } from "~/schemas/tracking";
import { lookupOrderByNumber } from "~/services/limits.server";
import { findTrackedOrder } from "~/services/orders/summary.server";
import { ShopMediatorNotice } from "~/components/shop/MediatorNotice";
import { log } from "~/log.server";

export const meta: MetaFunction = () =>
  pageMeta("Suivre ma commande", "Suivez votre commande avec son numéro : préparation, expédition, livraison.");

export const headers: HeadersFunction = pageHeaders(NO_STORE_HEADERS);

const NOT_FOUND = "Commande introuvable";
const NOT_FOUND_HINT = "Vérifiez le numéro de commande indiqué dans votre email de confirmation, puis réessayez.";
/** The one answer to an unknown number and to a wrong email: the form tells nothing about which. */
const NO_MATCH_WITH_EMAIL = "Aucune commande ne correspond à ce numéro et à cette adresse email.";
const UNEXPECTED = "Une erreur est survenue lors du suivi de votre commande.";

type Outcome = "found" | "not-found" | "limited" | "error";

/**
 * GET /track-order?id=...[&email=...]: the number is in the URL, so a result can be bookmarked
 * and needs no JavaScript. The number alone shows the progress, the items, the total, the
 * postcode and the city; the order's email (or the buyer's own browser, the order token in
 * ?token=, the key of an email's view link in ?cle=, an administrator) also shows the name
 * and the street.
 * Unknown numbers (and wrong emails) are counted per client address: 429 past the limit (limits.server.ts).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  if (!params.has("id")) {
    return data(
      { result: null, order: null, outcome: null as Outcome | null, message: null as string | null, withEmail: false },
      { headers: NO_STORE_HEADERS },
    );
  }
  const submission = parseWithZod(params, { schema: trackingSchema });
  if (submission.status !== "success") {
    return data(
      { result: submission.reply(), order: null, outcome: null, message: null, withEmail: false },
      { status: 400, headers: NO_STORE_HEADERS },
    );
  }
  const id = parseOrderNumber(submission.value.id);
  const email = submission.value.email ?? null;
  try {
    const proof = await readOrderProof(request, { email });
    const order = id
      ? await lookupOrderByNumber(clientAddress(request, context), async () => await findTrackedOrder(id, proof))
      : null;
    return data(
      {
        result: submission.reply(),
        order,
        outcome: (order ? "found" : "not-found") as Outcome,
        message: null,
        withEmail: email !== null,
      },
      { status: order ? 200 : 404, headers: NO_STORE_HEADERS },
    );
  } catch (error) {
    const refusal = actionError(error);
    if (refusal) {
      return data(
        {
          result: submission.reply(),
          order: null,
          outcome: "limited" as Outcome,
          message: refusal.message,
          withEmail: email !== null,
        },
        { status: refusal.status, headers: { ...NO_STORE_HEADERS, ...retryAfterHeaders(refusal) } },
      );
    }
    log.error({ err: error }, "order tracking failed");
    return data(
      { result: submission.reply(), order: null, outcome: "error" as Outcome, message: null, withEmail: email !== null },
      { status: 503, headers: NO_STORE_HEADERS },
    );
  }
}

export default function TrackOrder() {
  const { result, order, outcome, message, withEmail } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/track-order";

  const [form, fields] = useForm({
    id: "tracking-form",
    lastResult: result ?? undefined,
    constraint: undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: trackingSchema }),
  });

  return (
    <div className="container-page py-10 md:py-16">
      <div className="mx-auto max-w-3xl">
        <h1 className="font-serif text-3xl md:text-4xl">Suivre ma commande</h1>
        <p className="mt-3 text-ink-soft">
          Saisissez le numéro de commande reçu par email pour connaître l'avancement de votre livraison.
        </p>

        <Form
          method="get"
          {...getFormProps(form)}
          className="mt-8 grid gap-3 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
        >
          <Field label="Numéro de commande" field={fields.id} inputMode="numeric" autoComplete="off" maxLength={40} />
          <Field
            label="Email de la commande (facultatif)"
            field={fields.email}
            type="email"
            autoComplete="email"
            maxLength={254}
            hint="Pour afficher aussi le nom et l'adresse de livraison."
          />
          <button type="submit" className="btn-primary sm:mt-6" disabled={searching}>
            {searching ? "Recherche..." : "Suivre"}
          </button>
        </Form>

        <div aria-live="polite" className={searching ? "opacity-60" : ""}>
          {outcome === "not-found" ? (
            <div role="alert" data-testid="tracking-not-found" className="mt-8 rounded-2xl border border-rose-200 bg-rose-50 p-6">
              <h2 className="font-serif text-xl text-rose-700">{NOT_FOUND}</h2>
              <p className="mt-2 text-ink-soft">{withEmail ? NO_MATCH_WITH_EMAIL : NOT_FOUND_HINT}</p>
            </div>
          ) : null}
          {outcome === "limited" ? (
            <div role="alert" data-testid="tracking-limited" className="mt-8 rounded-2xl border border-rose-200 bg-rose-50 p-6">
              <h2 className="font-serif text-xl text-rose-700">Recherche momentanément bloquée</h2>
              <p className="mt-2 text-ink-soft">{message}</p>
            </div>
          ) : null}
          {outcome === "error" ? (
            <div role="alert" className="mt-8 rounded-2xl border border-rose-700 bg-rose-700 p-6 text-white">
              <h2 className="font-semibold">Erreur</h2>
              <p className="mt-1">{UNEXPECTED}</p>
            </div>
          ) : null}
          {order ? <TrackingResult order={order} /> : null}
        </div>
      </div>
    </div>
  );
}

type TrackedOrder = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["order"]>;

function TrackingResult({ order }: { order: TrackedOrder }) {
  // Before the payment, no step is reached: the order is not 'Commande reçue' yet.
  const received = paymentReceived(order.paymentStatus);
  const current = received ? fulfilmentStep(order.status) : 0;
  return (
    <section
      aria-labelledby="tracking-result"
      className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5 md:p-8"
      data-testid="tracking-result"
    >
      <h2 id="tracking-result" className="font-serif text-2xl">
        Commande n°{order.id}
      </h2>
      <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-ink-soft">Date de commande</dt>
          <dd className="mt-1 font-semibold">{formatDate(order.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-ink-soft">Statut</dt>
          <dd className={`mt-1 font-semibold ${received ? "" : "text-rose-700"}`} data-testid="tracking-status">
            {order.progressLabel}
          </dd>
        </div>
        {order.closure ? null : (
          <div>
            <dt className="text-ink-soft">Paiement</dt>
            <dd className="mt-1 font-semibold first-letter:uppercase" data-testid="tracking-payment">
              {PAYMENT_STATE_WORDS[order.paymentStatus]}
            </dd>
          </div>
        )}
      </dl>

      {received ? null : (
        <p role="status" className="mt-6 rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm" data-testid="tracking-unpaid">
          Nous n'avons pas reçu le paiement de cette commande : elle ne sera préparée qu'une fois payée. Si vous venez de payer,
          actualisez cette page dans un instant ; sinon, reprenez votre commande depuis votre panier.
        </p>
      )}

      {order.closure ? (
        <p
          role="status"
          className="mt-6 rounded-xl border border-ink/10 bg-ink/5 p-4 text-sm text-ink"
          data-testid="tracking-final-state"
        >
          {order.closureText}
        </p>
      ) : (
        <TrackingSteps order={order} current={current} />
      )}

      <div className="mt-8 grid gap-6 sm:grid-cols-2">
        <div>
          <h3 className="font-semibold">Adresse de livraison</h3>
          <div className="mt-2">
            <ShippingAddress order={order} />
          </div>
          {order.owner ? null : (
            <p className="mt-2 text-sm text-ink-soft" data-testid="address-hidden-note">
              Le nom et la rue ne s'affichent qu'avec l'adresse email de la commande.
            </p>
          )}
        </div>
        <div>
          <h3 className="font-semibold">Total</h3>
          <p className="mt-2 text-2xl font-semibold" data-testid="tracking-total">
            {formatPrice(order.totalCents)}
          </p>
          <p className="text-sm text-ink-soft">Livraison gratuite</p>
          {order.invoicePath ? (
            <p className="mt-3 text-sm">
              <a href={order.invoicePath} className="font-medium underline" data-testid="invoice-link">
                Télécharger ma facture n°{order.invoiceNumber}
              </a>
              {order.creditNotePath ? (
                <a href={order.creditNotePath} className="mt-1 block font-medium underline">
                  Télécharger mon avoir
                </a>
              ) : null}
            </p>
          ) : null}
        </div>
      </div>
      <ShopMediatorNotice className="mt-6 border-t border-ink/5 pt-4 text-sm text-ink-soft" />
    </section>
  );
}

/** The four steps, the current one marked: for an order that goes on (a closed one shows its final state instead). */
function TrackingSteps({ order, current }: { order: TrackedOrder; current: number }) {
  return (
    <>
      <h3 className="mt-8 font-semibold">Avancement</h3>
      <ol className="mt-4 grid gap-4 sm:grid-cols-4" data-testid="tracking-steps">
        {FULFILMENT_STEPS.map((step, index) => {
          const position = index + 1;
          const state = position < current ? "done" : position === current ? "current" : "later";
          return (
            <li
              key={step.status}
              aria-current={state === "current" ? "step" : undefined}
              data-state={state}
              className={`flex items-start gap-3 rounded-xl p-3 sm:flex-col ${
                state === "current" ? "bg-rose-50 ring-2 ring-rose-600" : state === "done" ? "bg-sage-100" : "bg-ink/5"
              }`}
            >
              <span
                aria-hidden="true"
                className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                  state === "current"
                    ? "bg-rose-600 text-white"
                    : state === "done"
                      ? "bg-sage-600 text-white"
                      : "bg-white text-ink-soft"
                }`}
              >
                {state === "done" ? "✓" : position}
              </span>
              <span className="min-w-0">
                <span className={`block font-semibold ${state === "later" ? "text-ink-soft" : "text-ink"}`}>{step.label}</span>
                <span className="sr-only">
                  {state === "done" ? " (terminée)" : state === "current" ? " (étape en cours)" : " (à venir)"}
                </span>
                {step.status === "shipped" && order.trackingNumber ? (
                  <span className="mt-1 block text-sm text-ink-soft">
                    Numéro de suivi :{" "}
                    <span className="whitespace-nowrap font-semibold text-ink" data-testid="tracking-number">
                      {order.trackingNumber}
                    </span>
                    {order.trackingUrl && order.trackingCarrier ? (
                      <a
                        href={order.trackingUrl}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="mt-1 block font-medium text-ink underline"
                        data-testid="carrier-link"
                      >
                        Suivre le colis sur le site de {CARRIER_LABELS[order.trackingCarrier]}
                        <span className="sr-only"> (nouvelle fenêtre)</span>
                      </a>
                    ) : null}
                  </span>
                ) : null}
              </span>
            </li>
          );
        })}
      </ol>
    </>
  );
}
