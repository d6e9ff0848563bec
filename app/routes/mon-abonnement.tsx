import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { AddressFields } from "~/components/ui/AddressFields";
import { Field } from "~/components/ui/Field";
import { actionError, refusalReply } from "~/http/action-errors.server";
import { cacheControl, PRIVATE_NO_STORE } from "~/http/cache-control";
import { readPageForm } from "~/http/page-form.server";
import { pageHeaders } from "~/http/retry-after";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { renewalChargeText } from "~/lib/renewal-amount";
import { CANCEL_SCHEDULED_LABEL, SUBSCRIPTION_STATUS_LABELS } from "~/lib/subscription-status";
import { subscriptionAddressSchema } from "~/schemas/subscription-address";
import { LinkProblem, type LinkProblemKind } from "~/components/subscription/LinkProblem";
import { SubscriptionOrders } from "~/components/subscription/SubscriptionOrders";
import { UnpaidRenewalNotice } from "~/components/subscription/UnpaidRenewalNotice";
import { NEW_LINK_SENT_MESSAGE } from "~/lib/link-lifetimes";
import { requestLinksByEmail } from "~/pages/subscription-link-request.server";
import { cancelSubscriptionRecord } from "~/services/subscriptions/cancel.server";
import {
  changeSubscriptionAddress,
  openSubscriptionPage,
  subscriptionPageView,
  type SubscriptionPageState,
  type SubscriptionPageView,
} from "~/services/subscriptions/customer-page.server";
import { log } from "~/log.server";
import { isSelfServiceIntent, selfServiceAction } from "~/pages/subscription-self-service.server";
import { selfServiceView, type SelfServiceView } from "~/services/subscriptions/self-service-view.server";
import { SELF_SERVICE_ANCHOR, SelfServiceActions } from "~/components/subscription/SelfServiceActions";
import { CancelReasonSelect } from "~/components/subscription/CancelReasonSelect";
import { CARD_ANCHOR, CardSection } from "~/components/subscription/CardSection";
import { cardChangeAction, isCardIntent } from "~/pages/subscription-card.server";
import { readCancelReason } from "~/lib/cancel-reasons";

/**
 * /mon-abonnement?id=&expire=&cle=: the customer's private page of a subscription, opened with
 * the signed management link of its emails (no account, valid SUBSCRIPTION_LINK_DAYS). Status,
 * pack, next renewal, delivery address, orders; change the address of the next renewals (the
 * customer is emailed); change the card (with JavaScript: Stripe's card field); pay a failed renewal; cancel. Without a working link: the form
 * « Recevoir un nouveau lien ». Plain forms (post/redirect/get with a toast): it works without
 * JavaScript.
 */

export const meta: MetaFunction = () => [
  ...pageMeta("Mon abonnement", "Votre abonnement aux masques : prochaines livraisons, adresse, commandes et résiliation."),
  { name: "referrer", content: "same-origin" },
];

/**
 * The key in the URL never leaves the shop: no referrer to other sites. Not "no-referrer": the
 * browser would then send `Origin: null` with the page's own forms, refused as cross-site.
 */
const PRIVATE_HEADERS = { ...cacheControl(PRIVATE_NO_STORE), "Referrer-Policy": "same-origin" };

export const headers: HeadersFunction = pageHeaders(PRIVATE_HEADERS);

/**
 * 404 for a link that is not ours (nothing said about why), 410 for one of ours that expired;
 * the page without any link (200) offers the same form « Recevoir un nouveau lien ».
 */
function linkProblem(reason: LinkProblemKind) {
  const status = reason === "expired" ? 410 : reason === "invalid" ? 404 : 200;
  return data(
    { problem: reason, subscription: null as (SubscriptionPageView & { selfService: SelfServiceView }) | null },
    { status, headers: PRIVATE_HEADERS },
  );
}

/** No part of a link in the URL. */
function withoutLink(params: URLSearchParams) {
  return !params.has("id") && !params.has("expire") && !params.has("cle");
}

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  if (withoutLink(params)) return linkProblem(params.get("lien") === "envoye" ? "sent" : "missing");
  const access = await openSubscriptionPage(params);
  if (!access.ok) return linkProblem(access.reason);
  return data(
    {
      problem: null as LinkProblemKind | null,
      // The subscriber's own changes (skip, pause, pack...): services/subscriptions/self-service-view.server.ts.
      subscription: { ...(await subscriptionPageView(access.record)), selfService: await selfServiceView(access.record) },
    },
    { headers: PRIVATE_HEADERS },
  );
}

const REPLACE = { headers: { "X-Remix-Replace": "true", ...PRIVATE_HEADERS } };

export async function action({ request, context }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const formData = await readPageForm(request);
  // « Recevoir un nouveau lien » needs no link: it is what a missing or expired one offers.
  if (formData.get("intent") === "new-link") return await requestLinksByEmail(formData, request, context, PRIVATE_HEADERS);
  const access = await openSubscriptionPage(url.searchParams);
  if (!access.ok) return linkProblem(access.reason);
  // Back to the page itself (its link, nothing else), so a reload never posts twice.
  const back = `/mon-abonnement?${new URLSearchParams({ id: url.searchParams.get("id")!, expire: url.searchParams.get("expire")!, cle: url.searchParams.get("cle")! })}`;
  const intent = formData.get("intent");

  // Skip, pause, resume, change pack, reactivate (pages/subscription-self-service.server.ts).
  if (isSelfServiceIntent(intent)) {
    return await selfServiceAction(
      intent,
      access.record,
      formData,
      { kind: "customer" },
      `${back}#${SELF_SERVICE_ANCHOR}`,
      REPLACE,
    );
  }

  // « Changer de carte »: the card form's SetupIntent, then its outcome (pages/subscription-card.server.ts).
  if (isCardIntent(intent))
    return await cardChangeAction(intent, access.record, formData, `${back}#${CARD_ANCHOR}`, PRIVATE_HEADERS);

  if (intent === "address") {
    const submission = parseWithZod(formData, { schema: subscriptionAddressSchema });
    if (submission.status !== "success") {
      return data({ result: submission.reply() }, { status: 400, headers: PRIVATE_HEADERS });
    }
    try {
      await changeSubscriptionAddress(access.record, submission.value);
    } catch (error) {
      const refusal = actionError(error);
      if (!refusal) throw error;
      return data({ result: submission.reply(refusalReply(refusal)) }, { status: refusal.status, headers: PRIVATE_HEADERS });
    }
    return redirectWithSuccess(
      back,
      {
        message: "Adresse enregistrée",
        description: "Vos prochaines livraisons partiront à cette adresse. Les commandes déjà passées gardent la leur.",
      },
      REPLACE,
    );
  }

  if (intent === "cancel") {
    try {
      const done = await cancelSubscriptionRecord(access.record, readCancelReason(formData.get("reason")) ?? undefined);
      // Back to the top of the page, where its state now says "Résilié" (a phone was at the
      // bottom, on the cancel button): the fragment scrolls there, with or without JavaScript.
      return redirectWithSuccess(
        `${back}#${STATE_ANCHOR}`,
        {
          message: done.outcome === "canceled" ? "Votre abonnement est résilié" : "Votre abonnement était déjà résilié",
          description: "Aucun autre prélèvement ne sera effectué. Une confirmation vous est envoyée par email.",
        },
        REPLACE,
      );
    } catch (error) {
      const refusal = actionError(error);
      if (!refusal) log.error({ err: error }, "subscription cancellation from its page failed");
      return redirectWithError(
        back,
        {
          message: "Résiliation non enregistrée",
          description: refusal?.message ?? "La résiliation n'a pas pu être enregistrée. Veuillez réessayer dans un instant.",
        },
        REPLACE,
      );
    }
  }

  return data({ result: null }, { status: 400, headers: PRIVATE_HEADERS });
}

/** The page's header: its state, and the answer to a cancellation. */
const STATE_ANCHOR = "etat";

/** The labels of lib/subscription-status.ts, the same as the back office's. */
const STATE_BADGES: Record<SubscriptionPageState, { label: string; className: string }> = {
  incomplete: { label: SUBSCRIPTION_STATUS_LABELS.incomplete, className: "bg-ink/5 text-ink" },
  active: { label: SUBSCRIPTION_STATUS_LABELS.active, className: "bg-sage-100 text-sage-700" },
  past_due: { label: SUBSCRIPTION_STATUS_LABELS.past_due, className: "bg-rose-100 text-rose-700" },
  cancel_scheduled: { label: CANCEL_SCHEDULED_LABEL, className: "bg-ink/5 text-ink" },
  canceled: { label: SUBSCRIPTION_STATUS_LABELS.canceled, className: "bg-ink/5 text-ink" },
};

function stateLabel(view: SubscriptionPageView): string {
  if (view.state === "cancel_scheduled" && view.endsAt) return `${CANCEL_SCHEDULED_LABEL} le ${formatDate(view.endsAt)}`;
  if (view.state === "canceled" && view.endsAt) return `${SUBSCRIPTION_STATUS_LABELS.canceled} le ${formatDate(view.endsAt)}`;
  return STATE_BADGES[view.state].label;
}

export default function MySubscription() {
  const { problem, subscription } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (problem || !subscription) {
    return (
      <LinkProblem
        kind={problem ?? "invalid"}
        sentMessage={NEW_LINK_SENT_MESSAGE}
        lastResult={actionData && "linkRequest" in actionData ? actionData.linkRequest : undefined}
      />
    );
  }
  return <SubscriptionPage view={subscription} selfService={subscription.selfService} />;
}

function SubscriptionPage({ view, selfService }: { view: SubscriptionPageView; selfService: SelfServiceView | null }) {
  const weeks = selfService?.intervalWeeks ?? 4;
  const nextChargeAt = selfService ? selfService.nextChargeAt : view.nextRenewalAt;
  const badge = STATE_BADGES[view.state];
  const pack = view.variantName ? `${view.productName} – ${view.variantName}` : view.productName;
  return (
    <div className="container-page py-10 md:py-16">
      <div className="mx-auto max-w-3xl space-y-8">
        <header id={STATE_ANCHOR} className="scroll-mt-24">
          <h1 className="font-serif text-3xl md:text-4xl">Mon abonnement</h1>
          <p className="mt-3 flex flex-wrap items-center gap-3">
            <span data-testid="subscription-state" className={`rounded-full px-3 py-1 text-sm font-semibold ${badge.className}`}>
              {stateLabel(view)}
            </span>
          </p>
          {view.state === "canceled" ? (
            <p role="status" data-testid="subscription-ended" className="mt-4 rounded-xl bg-sage-100 p-4 text-sage-700">
              Votre abonnement est résilié : aucun autre prélèvement ne sera effectué. Les commandes déjà payées vous restent
              acquises et vous sont livrées.
            </p>
          ) : null}
        </header>

        {view.payPath && view.unpaidRenewal ? <UnpaidRenewalNotice unpaid={view.unpaidRenewal} payPath={view.payPath} /> : null}

        <section aria-labelledby="formule" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
          <h2 id="formule" className="font-serif text-xl">
            Votre formule
          </h2>
          <dl className="mt-4 grid gap-4 sm:grid-cols-2">
            <div>
              <dt className="text-sm text-ink-soft">Pack</dt>
              <dd className="font-semibold" data-testid="subscription-pack">
                {view.quantity > 1 ? `${view.quantity} × ` : ""}
                {pack}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-ink-soft">Montant</dt>
              <dd className="font-semibold" data-testid="subscription-amount">
                {formatPrice(view.amountCents)} toutes les {weeks} semaines
              </dd>
            </div>
            <div>
              <dt className="text-sm text-ink-soft">Prochain renouvellement</dt>
              <dd className="font-semibold" data-testid="subscription-next-renewal">
                {view.nextRenewalAt && nextChargeAt
                  ? `${formatDate(nextChargeAt)} : ${renewalChargeText(view.nextCharge)}`
                  : view.unpaidRenewal?.nextAfterPaymentAt
                    ? `${formatDate(view.unpaidRenewal.nextAfterPaymentAt)} : ${formatPrice(view.amountCents)}, une fois le montant dû réglé`
                    : view.unpaidRenewal
                      ? "Une fois le montant dû réglé"
                      : "Aucun"}
              </dd>
            </div>
          </dl>
        </section>

        {selfService ? <SelfServiceActions view={selfService} amountCents={view.amountCents} /> : null}

        {view.canChangeCard ? (
          <CardSection
            card={view.card}
            pastDue={view.state === "past_due"}
            billing={{
              name: `${view.address.firstName} ${view.address.lastName}`.trim(),
              address: view.address.address,
              postalCode: view.address.postalCode,
              city: view.address.city,
              email: view.customerEmail,
            }}
          />
        ) : null}

        {/* A new address saved: the section starts afresh (form closed, new values). */}
        <AddressSection key={Object.values(view.address).join("|")} view={view} />
        <SubscriptionOrders orders={view.orders} />
        {view.canCancel ? <CancelSection canPause={Boolean(selfService?.canPause || selfService?.canSkip)} /> : null}
      </div>
    </div>
  );
}

const ADDRESS_FIELDS = ["firstName", "lastName", "address", "address2", "postalCode", "city", "phone"] as const;

function AddressSection({ view }: { view: SubscriptionPageView }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "address";
  const [form, fields] = useForm({
    id: "subscription-address-form",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: view.address,
    constraint: undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: subscriptionAddressSchema }),
  });
  const a = view.address;
  // Refused by the server (without JavaScript too): the form stays open on its messages.
  const hasErrors = Boolean(form.errors) || ADDRESS_FIELDS.some((name) => fields[name].errors);
  // Opened by the customer or by errors; never closed under their fingers while they correct a field.
  const [open, setOpen] = useState(hasErrors);
  useEffect(() => {
    if (hasErrors) setOpen(true);
  }, [hasErrors]);
  return (
    <section aria-labelledby="adresse" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
      <h2 id="adresse" className="font-serif text-xl">
        {view.canChangeAddress ? "Adresse de livraison des prochains colis" : "Dernière adresse de livraison"}
      </h2>
      <address className="mt-3 not-italic text-ink-soft" data-testid="subscription-address">
        {a.firstName} {a.lastName}
        <br />
        {a.address}
        <br />
        {a.address2 ? (
          <>
            {a.address2}
            <br />
          </>
        ) : null}
        {a.postalCode} {a.city}, {a.country}
        {a.phone ? (
          <>
            <br />
            Téléphone : {a.phone}
          </>
        ) : null}
      </address>
      {view.canChangeAddress ? (
        <details className="mt-4" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
          <summary className="cursor-pointer font-semibold text-rose-700 underline">Changer l'adresse</summary>
          <Form
            method="post"
            action={`${location.pathname}${location.search}`}
            {...getFormProps(form)}
            className="mt-4 grid gap-3 sm:grid-cols-2"
          >
            <input type="hidden" name="intent" value="address" />
            <Field label="Prénom" field={fields.firstName} autoComplete="shipping given-name" maxLength={60} />
            <Field label="Nom" field={fields.lastName} autoComplete="shipping family-name" maxLength={60} />
            <AddressFields fields={fields} />
            {form.errors ? (
              <p role="alert" className="text-sm text-rose-700 sm:col-span-2">
                {form.errors.join(" ")}
              </p>
            ) : null}
            <p className="text-sm text-ink-soft sm:col-span-2">
              Livraison en France. Les commandes déjà passées gardent leur adresse.
            </p>
            <div className="sm:col-span-2">
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={saving}>
                {saving ? "Enregistrement..." : "Enregistrer cette adresse"}
              </button>
            </div>
          </Form>
        </details>
      ) : null}
    </section>
  );
}

function CancelSection({ canPause }: { canPause: boolean }) {
  const navigation = useNavigation();
  const location = useLocation();
  const canceling = navigation.state === "submitting" && navigation.formData?.get("intent") === "cancel";
  return (
    <section aria-labelledby="resilier" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
      <h2 id="resilier" className="font-serif text-xl">
        Résilier mon abonnement
      </h2>
      <p className="mt-2 text-ink-soft">À tout moment, sans frais ni justificatif.</p>
      <details className="mt-4">
        <summary className="cursor-pointer font-semibold text-rose-700 underline">Résilier</summary>
        <div className="mt-3 rounded-xl bg-ink/5 p-4">
          {canPause ? (
            <p className="mb-3 text-sm">
              <a href={`#${SELF_SERVICE_ANCHOR}`} className="font-semibold text-rose-700 underline">
                Plutôt faire une pause ?
              </a>{" "}
              Sautez une livraison ou faites une pause de 1 à 3 cycles, sans frais.
            </p>
          ) : null}
          <ul className="list-disc space-y-1 pl-5 text-sm text-ink-soft">
            <li>L'abonnement prend fin immédiatement : aucun autre prélèvement ne sera effectué.</li>
            <li>Les commandes déjà payées vous restent acquises et vous sont livrées.</li>
            <li>Une confirmation vous est envoyée par email.</li>
          </ul>
          <Form method="post" action={`${location.pathname}${location.search}`} className="mt-4">
            <input type="hidden" name="intent" value="cancel" />
            <CancelReasonSelect id="cancel-reason" className="mb-4" />
            <button type="submit" className="btn-secondary w-full sm:w-auto" disabled={canceling}>
              {canceling ? "Résiliation en cours..." : "Confirmer la résiliation"}
            </button>
          </Form>
        </div>
      </details>
    </section>
  );
}
