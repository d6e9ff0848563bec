import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { Dialog } from "~/components/admin/Dialog";
import { EmailStatusBadge } from "~/components/admin/EmailParts";
import { OrderStateBadges } from "~/components/admin/OrderBadges";
import { SubscriptionBadge } from "~/components/admin/SubscriptionBadge";
import { buttonDanger, buttonPrimary, buttonSecondary, Card, PageHeader } from "~/components/admin/ui";
import { actionError } from "~/http/action-errors.server";
import { requireAdminForm } from "~/http/admin-pages.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { pageIdOr404 } from "~/http/api.server";
import { ordersWithWithdrawal } from "~/services/withdrawals.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { readPageForm } from "~/http/page-form.server";
import { formatDate, formatDateTime } from "~/lib/dates";
import type { EmailStatus } from "~/lib/email-kinds";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { renewalChargeText } from "~/lib/renewal-amount";
import { renewalLabel } from "~/lib/renewals";
import { getAdminSubscription } from "~/services/subscriptions/admin-view.server";
import { selfServiceViewById } from "~/services/subscriptions/self-service-view.server";
import { adminSelfServiceAction, isSelfServiceIntent } from "~/pages/subscription-self-service.server";
import { SubscriptionChangeCard } from "~/components/admin/SubscriptionChangeCard";
import { cancelSubscriptionAsAdmin, undoScheduledCancellation } from "~/services/subscriptions/admin-cancel.server";
import { sendManagementLinkAsAdmin } from "~/services/subscriptions/manage-link.server";
import {
  awaitRenewalOutcome,
  simulateNextRenewal,
  subscriptionTestClock,
  testClocksEnabled,
} from "~/services/subscriptions/test-clock.server";

const NOT_FOUND = "Abonnement introuvable";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data ? `Abonnement n°${data.subscription.id}` : NOT_FOUND, "Détails de l'abonnement.");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const subscription = await getAdminSubscription(pageIdOr404(params.id, NOT_FOUND));
  if (!subscription) throw new Response(NOT_FOUND, { status: 404 });
  const clocks = testClocksEnabled();
  // The customer's test clock, when the next renewal can be simulated (Stripe unreachable: no button).
  const clock =
    clocks && subscription.status !== "canceled" && subscription.status !== "incomplete"
      ? await subscriptionTestClock(subscription.id).catch(() => null)
      : null;
  const asked = new URL(request.url).searchParams.get("confirm");
  const confirm: "now" | "period_end" | null = asked === "now" || asked === "period_end" ? asked : null;
  const selfService = await selfServiceViewById(subscription.id);
  // The orders withdrawn by the subscriber: their one final state in the list.
  const withdrawn = [...(await ordersWithWithdrawal(subscription.orders.map((o) => o.id)))];
  return data({ subscription, clocks, clock, confirm, selfService, withdrawn }, { headers: NO_STORE_HEADERS });
}

function simulatedMessage(outcome: Awaited<ReturnType<typeof awaitRenewalOutcome>>): { ok: boolean; text: string } {
  switch (outcome.outcome) {
    case "order_created":
      return { ok: true, text: `Renouvellement n°${outcome.renewalNumber} simulé : commande #${outcome.orderId} créée.` };
    case "payment_failed":
      return {
        ok: true,
        text: `Renouvellement n°${outcome.renewalNumber} simulé : le paiement a été refusé, l'abonnement est en retard de paiement.`,
      };
    case "action_required":
      return {
        ok: true,
        text: `Renouvellement n°${outcome.renewalNumber} simulé : la banque demande au client de confirmer le paiement (3-D Secure). Il a reçu le lien de paiement par email ; l'abonnement est en retard de paiement d'ici là.`,
      };
    case "ended":
      return { ok: true, text: "Fin de période simulée : la résiliation prévue a pris effet, l'abonnement est résilié." };
    case "skipped":
      return {
        ok: true,
        text: `Renouvellement du ${formatDate(outcome.periodEnd)} simulé : livraison sautée ou en pause, rien n'a été prélevé. Prochain renouvellement le ${formatDate(outcome.nextRenewalAt)}.`,
      };
    case "pending":
      return {
        ok: true,
        text: `Renouvellement n°${outcome.renewalNumber} simulé chez Stripe, mais son webhook n'est pas encore arrivé : la commande apparaîtra dès sa réception (rechargez la page dans un instant).`,
      };
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminForm(request);
  const id = pageIdOr404(params.id, NOT_FOUND);
  const back = `/admin/subscriptions/${id}`;
  const formData = await readPageForm(request);
  const intent = formData.get("intent");
  // The subscriber's changes, made by the shop with a reason (pages/subscription-self-service.server.ts).
  if (isSelfServiceIntent(intent)) return await adminSelfServiceAction(intent, id, formData, back);
  try {
    switch (intent) {
      case "cancel_now":
        await cancelSubscriptionAsAdmin(id, { when: "now" });
        return redirectWithSuccess(back, {
          message: "Abonnement résilié",
          description: "L'abonnement est résilié : plus aucun prélèvement. Le client en est informé par email.",
        });
      case "cancel_period_end":
        await cancelSubscriptionAsAdmin(id, { when: "period_end" });
        return redirectWithSuccess(back, {
          message: "Résiliation prévue",
          description: "L'abonnement prendra fin à la fin de la période payée, sans nouveau prélèvement.",
        });
      case "undo_cancel":
        await undoScheduledCancellation(id);
        return redirectWithSuccess(back, {
          message: "Résiliation annulée",
          description: "L'abonnement continue : les renouvellements reprennent normalement.",
        });
      case "send_manage_link":
        await sendManagementLinkAsAdmin(id);
        return redirectWithSuccess(back, {
          message: "Lien envoyé",
          description:
            "Le client a reçu par email le lien de son espace abonnement : il peut y changer de carte (la boutique ne saisit jamais une carte elle-même).",
        });
      case "simulate_renewal": {
        const simulated = await simulateNextRenewal(id);
        const message = simulatedMessage(await awaitRenewalOutcome(simulated));
        return redirectWithSuccess(back, { message: "Renouvellement simulé", description: message.text });
      }
      default:
        return redirectWithError(back, { message: "Erreur", description: "Une erreur est survenue: action inconnue" });
    }
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    if (refusal.status === 404) throw new Response(NOT_FOUND, { status: 404 });
    return redirectWithError(back, { message: "Action impossible", description: refusal.message });
  }
}

/** The bank asks the customer to authenticate the unpaid renewal (3-D Secure): they were emailed the pay link. */
function ActionRequiredBadge({ at }: { at: string }) {
  return (
    <span
      data-testid="action-required"
      className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-900"
    >
      Authentification requise depuis le {formatDateTime(at)}
    </span>
  );
}

function Line({ label, value, mono = false }: { label: string; value: React.ReactNode; mono?: boolean }) {
  const empty = value === null || value === undefined || (typeof value === "string" && !value.trim());
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="shrink-0 text-ink-soft">{label}</dt>
      <dd className={`min-w-0 break-all text-right font-medium ${mono ? "font-mono text-xs" : ""}`}>{empty ? "-" : value}</dd>
    </div>
  );
}

const TIMELINE_DOT: Record<string, string> = {
  started: "bg-emerald-500",
  first_order: "bg-ink",
  renewal: "bg-emerald-500",
  payment_failed: "bg-red-600",
  email: "bg-slate-300",
  cancel_scheduled: "bg-amber-500",
  canceled: "bg-violet-600",
  change: "bg-sky-500",
};

const CONFIRM_TEXT = {
  now: {
    title: "Résilier maintenant ?",
    body: "L'abonnement prend fin tout de suite chez Stripe : plus aucun prélèvement ni renouvellement. Les commandes déjà payées restent à livrer. Le client reçoit l'email de résiliation.",
    intent: "cancel_now",
    button: "Résilier maintenant",
  },
  period_end: {
    title: "Résilier à la fin de la période ?",
    body: "L'abonnement continue jusqu'à la fin de la période déjà payée, puis prend fin sans nouveau prélèvement. Vous pourrez annuler cette résiliation d'ici là.",
    intent: "cancel_period_end",
    button: "Résilier à la fin de la période",
  },
} as const;

export default function AdminSubscriptionDetail() {
  const { subscription: s, clocks, clock, confirm, selfService, withdrawn } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const busyIntent = busy ? navigation.formData?.get("intent") : null;
  const open = s.status !== "canceled" && s.status !== "incomplete";
  const cityLine = [s.shipping.postalCode, s.shipping.city].filter(Boolean).join(" ");

  return (
    <>
      <PageHeader title={`Abonnement n°${s.id}`} back={{ to: "/admin/subscriptions", label: "Retour aux abonnements" }}>
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-ink-soft">
          <span>
            {s.customer} · {s.pack} · {formatPrice(s.amountCents)} toutes les {s.intervalWeeks} semaines
          </span>
          <SubscriptionBadge status={s.status} cancelAtPeriodEnd={s.cancelAtPeriodEnd} />
          {s.actionRequiredAt ? <ActionRequiredBadge at={s.actionRequiredAt} /> : null}
        </div>
      </PageHeader>

      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          <Card title="Abonnement">
            <dl>
              <Line label="Pack" value={s.quantity > 1 ? `${s.pack} × ${s.quantity}` : s.pack} />
              <Line label={`Montant toutes les ${s.intervalWeeks} semaines`} value={formatPrice(s.amountCents)} />
              <Line label="Statut" value={<SubscriptionBadge status={s.status} cancelAtPeriodEnd={s.cancelAtPeriodEnd} />} />
              <Line label="Souscrit le" value={s.startedAt ? formatDateTime(s.startedAt) : null} />
              <Line
                label={s.cancelAtPeriodEnd ? "Fin prévue le" : "Prochain renouvellement"}
                value={s.nextRenewalAt ? formatDate(s.nextRenewalAt) : null}
              />
              {s.nextRenewalAt && !s.cancelAtPeriodEnd && s.status !== "canceled" ? (
                <Line label="Prochain prélèvement" value={renewalChargeText(s.nextCharge)} />
              ) : null}
              <Line label="Carte de paiement" value={s.card ?? "Carte du premier paiement"} />
              <Line label="Renouvellements payés" value={String(s.renewalCount)} />
              {s.canceledAt ? <Line label="Résilié le" value={formatDateTime(s.canceledAt)} /> : null}
              {s.unpaidInvoiceId ? <Line label="Renouvellement impayé" value={s.unpaidInvoiceId} mono /> : null}
              {s.actionRequiredAt ? (
                <Line
                  label="Authentification requise"
                  value={`Demandée par la banque le ${formatDateTime(s.actionRequiredAt)}`}
                />
              ) : null}
            </dl>
          </Card>

          <Card title="Commandes de l'abonnement">
            {s.orders.length === 0 ? (
              <p className="text-ink-soft">Aucune commande.</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="subscription-orders">
                {s.orders.map((order) => (
                  <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                    <span>
                      <Link
                        to={`/admin/orders/${order.id}`}
                        className="font-mono font-medium underline decoration-slate-300 hover:decoration-ink"
                      >
                        #{order.id}
                      </Link>{" "}
                      <span className="text-ink-soft">{renewalLabel(order.renewalNumber) ?? "Commande de souscription"}</span>
                    </span>
                    <span className="flex flex-wrap items-center gap-2">
                      <span className="tabular-nums text-ink-soft">{formatDate(order.paidAt ?? order.createdAt)}</span>
                      <span className="font-semibold tabular-nums">{formatPrice(order.totalCents)}</span>
                      <OrderStateBadges
                        status={order.status}
                        paymentStatus={order.paymentStatus}
                        withdrawn={withdrawn.includes(order.id)}
                      />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card title="Historique">
            {s.timeline.length === 0 ? (
              <p className="text-ink-soft">Rien pour l'instant.</p>
            ) : (
              <ol className="space-y-3" data-testid="subscription-timeline">
                {s.timeline.map((event, index) => (
                  <li key={index} className="flex gap-3 text-sm">
                    <span
                      aria-hidden="true"
                      className={`mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full ${TIMELINE_DOT[event.kind] ?? "bg-slate-300"}`}
                    />
                    <div className="min-w-0">
                      <p className="font-medium">
                        {event.emailId ? (
                          <Link
                            to={`/admin/emails/${event.emailId}`}
                            className="underline decoration-slate-300 hover:decoration-ink"
                          >
                            {event.label}
                          </Link>
                        ) : event.orderId && (event.kind === "renewal" || event.kind === "first_order") ? (
                          <Link
                            to={`/admin/orders/${event.orderId}`}
                            className="underline decoration-slate-300 hover:decoration-ink"
                          >
                            {event.label}
                          </Link>
                        ) : (
                          event.label
                        )}
                      </p>
                      {event.reason ? <p className="text-xs text-ink-soft">Raison : {event.reason}</p> : null}
                      <p className="text-xs tabular-nums text-ink-soft">
                        {event.kind === "cancel_scheduled" ? `Effet le ${formatDate(event.at)}` : formatDateTime(event.at)}
                        {event.emailId ? (
                          <>
                            {" · "}
                            {emailLine(s.emails, event.emailId)}
                          </>
                        ) : null}
                      </p>
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </div>

        {/* On a phone, the actions and the customer come first. */}
        <div className="order-first min-w-0 space-y-6 xl:order-none">
          <Card title="Actions">
            {open ? (
              <div className="space-y-3">
                {clocks ? (
                  clock ? (
                    <Form method="post" className="space-y-2">
                      <input type="hidden" name="intent" value="simulate_renewal" />
                      <button type="submit" className={`${buttonPrimary} w-full`} disabled={busy}>
                        {busyIntent === "simulate_renewal" ? "Simulation en cours..." : "Simuler le prochain renouvellement"}
                      </button>
                      <p className="text-xs text-ink-soft">
                        Avance l'horloge de test du client ({formatDateTime(clock.frozenTime)}) jusqu'au prochain renouvellement :
                        Stripe prélève, la commande est créée.
                      </p>
                    </Form>
                  ) : (
                    <p className="text-xs text-ink-soft">
                      Cet abonnement n'a pas d'horloge de test : son renouvellement ne peut pas être simulé.
                    </p>
                  )
                ) : null}
                <Form method="post" className="space-y-2">
                  <input type="hidden" name="intent" value="send_manage_link" />
                  <button type="submit" className={`${buttonSecondary} w-full`} disabled={busy}>
                    {busyIntent === "send_manage_link" ? "Envoi..." : "Envoyer au client le lien pour changer de carte"}
                  </button>
                  <p className="text-xs text-ink-soft">
                    La carte se change sur l'espace abonnement du client : la boutique ne saisit jamais une carte elle-même.
                  </p>
                </Form>
                <Link to={`${pathname}?confirm=now`} className={`${buttonDanger} w-full`} preventScrollReset>
                  Résilier maintenant
                </Link>
                {s.cancelAtPeriodEnd ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="undo_cancel" />
                    <button type="submit" className={`${buttonSecondary} w-full`} disabled={busy}>
                      {busyIntent === "undo_cancel" ? "Annulation..." : "Annuler la résiliation prévue"}
                    </button>
                  </Form>
                ) : (
                  <Link to={`${pathname}?confirm=period_end`} className={`${buttonSecondary} w-full`} preventScrollReset>
                    Résilier à la fin de la période
                  </Link>
                )}
              </div>
            ) : (
              <p className="text-sm text-ink-soft">
                {s.status === "canceled"
                  ? "Cet abonnement est résilié : aucune action possible."
                  : "Cet abonnement attend son premier paiement."}
              </p>
            )}
          </Card>

          {selfService ? <SubscriptionChangeCard view={selfService} /> : null}

          <Card title="Client">
            <dl>
              <Line label="Nom" value={s.customer} />
              <Line label="Email" value={s.email} />
            </dl>
          </Card>
          <Card title="Livraison des prochains renouvellements">
            <dl>
              <Line label="Destinataire" value={s.shipping.name} />
              <Line label="Adresse" value={s.shipping.address} />
              <Line label="Code postal et ville" value={cityLine} />
              <Line label="Pays" value={s.shipping.country} />
            </dl>
          </Card>
          <Card title="Stripe">
            <dl>
              <Line label="Abonnement" value={s.stripeSubscriptionId} mono />
              <Line label="Client" value={s.stripeCustomerId} mono />
              {clock ? <Line label="Horloge de test" value={clock.id} mono /> : null}
            </dl>
          </Card>
        </div>
      </div>

      {confirm && open ? (
        <Dialog title={CONFIRM_TEXT[confirm].title} closeTo={pathname} role="alertdialog" maxWidth="max-w-md">
          <p>{CONFIRM_TEXT[confirm].body}</p>
          <Form method="post" action={pathname} className="mt-6 flex flex-wrap justify-end gap-2" preventScrollReset>
            <input type="hidden" name="intent" value={CONFIRM_TEXT[confirm].intent} />
            <Link to={pathname} replace preventScrollReset className={buttonSecondary} data-autofocus>
              Ne pas résilier
            </Link>
            <button type="submit" className={buttonDanger} disabled={busy}>
              {busy ? "Résiliation..." : CONFIRM_TEXT[confirm].button}
            </button>
          </Form>
        </Dialog>
      ) : null}
    </>
  );
}

function emailLine(list: { id: number; status: EmailStatus; toAddress: string }[], id: number) {
  const email = list.find((e) => e.id === id);
  if (!email) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {email.toAddress} <EmailStatusBadge status={email.status} />
    </span>
  );
}

export function ErrorBoundary() {
  return (
    <AdminErrorBoundary
      notFound="Abonnement introuvable : vérifiez son numéro."
      backTo="/admin/subscriptions"
      backLabel="Retour aux abonnements"
    />
  );
}
