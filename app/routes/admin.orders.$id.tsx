import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { redirectWithSuccess } from "~/http/toast.server";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { emailKindLabel, EmailStatusBadge } from "~/components/admin/EmailParts";
import { FulfilmentBadge, PaymentBadge } from "~/components/admin/OrderBadges";
import { OrderRefunds, refundReply } from "~/components/admin/OrderRefunds";
import { OrderTimeline } from "~/components/admin/OrderTimeline";
import { OrderWithdrawal } from "~/components/admin/OrderWithdrawal";
import { Badge, buttonPrimary, buttonSecondary, Card, PageHeader, selectClass } from "~/components/admin/ui";
import { FieldError } from "~/components/ui/Field";
import { showToast } from "~/components/ui/Toaster";
import { requireAdmin } from "~/http/admin-guard.server";
import { actionError, refusalReply } from "~/http/action-errors.server";
import { pageIdOr404, requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice, shippingLabel } from "~/lib/money";
import { CARRIERS, CARRIER_LABELS } from "~/lib/carriers";
import { CLOSURE_LABELS, FULFILMENT_LABELS, FULFILMENT_STEPS, orderClosure } from "~/lib/order-status";
import { adminOrderFormSchema } from "~/schemas/admin-order";
import { getAdminOrder, orderFulfilmentRefusal, updateAdminOrder } from "~/services/admin-orders.server";
import { findInvoice } from "~/services/invoices.server";
import { getSettings } from "~/services/settings.server";
import { listOrderEmails } from "~/services/email/mailbox.server";
import { readPageForm } from "~/http/page-form.server";
import { refundFormAction } from "~/pages/admin-order-refund.server";
import { getOrderRefunds } from "~/services/payments/refunds.server";
import { randomUUID } from "node:crypto";
import { formatFrenchPhone } from "~/lib/phone";
import { adminWithdrawal } from "~/services/withdrawals.server";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data ? `Commande #${data.order.id}` : "Commande introuvable", "Détails de la commande.");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const order = await getAdminOrder(pageIdOr404(params.id, "Commande introuvable"));
  if (!order) throw new Response("Commande introuvable", { status: 404 });
  const invoice = await findInvoice(order.id, "invoice");
  const creditNote = await findInvoice(order.id, "credit_note");
  const withdrawal = await adminWithdrawal(order.id);
  return data(
    {
      order,
      emails: await listOrderEmails(order.id),
      invoiceNumber: invoice?.number ?? null,
      creditNoteNumber: creditNote?.number ?? null,
      /** Why no fulfilment step can be taken (unpaid, refunded or withdrawn), else null. */
      fulfilmentRefusal: await orderFulfilmentRefusal(order),
      /** The order's final state (refunded in full, withdrawn): it moves no more, and shows that state alone. */
      closure: orderClosure({ paymentStatus: order.paymentStatus, withdrawn: withdrawal !== null }),
      defaultCarrier: (await getSettings()).defaultCarrier,
      withdrawal,
      refunds: await getOrderRefunds(order),
      /** The « Rembourser » form's key, drawn for this page: a double submit refunds once. */
      refundKey: randomUUID(),
    },
    { headers: NO_STORE_HEADERS },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  const admin = await requireAdmin(request);
  const id = pageIdOr404(params.id, "Commande introuvable");
  const formData = await readPageForm(request);
  if (formData.get("intent") === "refund") return refundFormAction(id, formData, admin);
  const submission = parseWithZod(formData, { schema: adminOrderFormSchema });
  if (submission.status !== "success") {
    const message = Object.values(submission.error ?? {}).flat()[0] ?? "données invalides";
    return data(
      {
        result: submission.reply(),
        toast: { message: "Erreur", description: `Une erreur est survenue: ${message}`, type: "error" as const },
      },
      { status: 400 },
    );
  }
  let updated: boolean;
  try {
    updated = await updateAdminOrder(id, {
      status: submission.value.status,
      trackingNumber: submission.value.trackingNumber?.trim() || null,
      trackingCarrier: submission.value.trackingCarrier,
      confirmWithoutTracking: submission.value.confirmWithoutTracking,
    });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    if (refusal.code === "tracking_number_missing") {
      // Not an error: a question. The form comes back with what was typed and the confirmation step.
      return data({ result: submission.reply(), confirmShipping: refusal.message }, { status: 409 });
    }
    return data(
      {
        result: submission.reply(refusalReply(refusal)),
        toast: { message: "Mise à jour refusée", description: refusal.message, type: "error" as const },
      },
      { status: refusal.status },
    );
  }
  if (!updated) throw new Response("Commande introuvable", { status: 404 });
  return redirectWithSuccess(`/admin/orders/${id}`, {
    message: "Commande mise à jour",
    description: "Les informations de la commande ont été mises à jour avec succès.",
  });
}

function Line({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="shrink-0 text-ink-soft">{label}</dt>
      <dd className="min-w-0 text-right font-medium [overflow-wrap:anywhere]">{value?.trim() ? value : "-"}</dd>
    </div>
  );
}

export default function AdminOrderDetail() {
  const {
    order,
    emails,
    invoiceNumber,
    creditNoteNumber,
    fulfilmentRefusal,
    closure,
    defaultCarrier,
    withdrawal,
    refunds,
    refundKey,
  } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const actionData = data && "result" in data ? data : undefined;
  const navigation = useNavigation();
  const pending =
    navigation.state !== "idle" &&
    navigation.formMethod?.toUpperCase() === "POST" &&
    navigation.formAction === `/admin/orders/${order.id}`;

  useEffect(() => {
    if (actionData && "toast" in actionData && actionData.toast) showToast(actionData.toast);
  }, [actionData]);
  const confirmShipping = actionData && "confirmShipping" in actionData ? actionData.confirmShipping : null;

  const [form, fields] = useForm({
    id: `order-${order.id}`,
    lastResult: actionData?.result,
    defaultValue: {
      status: order.status,
      trackingNumber: order.trackingNumber ?? "",
      trackingCarrier: order.trackingCarrier ?? defaultCarrier,
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: adminOrderFormSchema }),
  });

  const mailto = order.email ? `mailto:${order.email}?subject=${encodeURIComponent(`Votre commande n°${order.id}`)}` : null;
  const cityLine = [order.shippingPostalCode, order.shippingCity].filter(Boolean).join(" ");

  return (
    <>
      <PageHeader
        title={`Détails de la commande #${order.id}`}
        back={{ to: "/admin/orders", label: "Retour aux commandes" }}
        actions={
          <>
            {invoiceNumber ? (
              <Link to={`/admin/orders/${order.id}/invoice`} className={buttonSecondary} reloadDocument>
                Facture {invoiceNumber}
              </Link>
            ) : (
              <span
                className={`${buttonSecondary} cursor-not-allowed opacity-60`}
                aria-disabled="true"
                title="La facture est émise au paiement de la commande"
              >
                Facture (émise au paiement)
              </span>
            )}
            {creditNoteNumber ? (
              <Link to={`/admin/orders/${order.id}/credit-note`} className={buttonSecondary} reloadDocument>
                Avoir {creditNoteNumber}
              </Link>
            ) : null}
            {mailto ? (
              <a href={mailto} className={buttonSecondary}>
                Contacter
              </a>
            ) : (
              <span
                className={`${buttonSecondary} cursor-not-allowed opacity-60`}
                aria-disabled="true"
                title="Aucune adresse email pour ce client"
              >
                Contacter
              </span>
            )}
          </>
        }
      >
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-ink-soft">
          <span>Passée le {formatDateTime(order.createdAt)}</span>
          {closure ? (
            <span data-testid="order-final-state-badge">
              <Badge tone="violet">{CLOSURE_LABELS[closure]}</Badge>
            </span>
          ) : (
            <>
              {fulfilmentRefusal ? null : <FulfilmentBadge status={order.status} />}
              <PaymentBadge status={order.paymentStatus} />
            </>
          )}
          {order.isSubscription ? (
            <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold">Abonnement</span>
          ) : null}
        </div>
      </PageHeader>

      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="space-y-6">
          <Card title="Articles commandés">
            {order.items.length === 0 ? (
              <p className="text-ink-soft">Aucun article.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {order.items.map((item) => (
                  <li key={item.id} className="flex items-center gap-4 py-3">
                    {item.image ? (
                      <img
                        src={item.image}
                        alt=""
                        width={56}
                        height={56}
                        className="h-14 w-14 shrink-0 rounded-lg border border-slate-200 object-cover"
                        loading="lazy"
                      />
                    ) : (
                      <span
                        aria-hidden="true"
                        className="flex h-14 w-14 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-xs text-slate-400"
                      >
                        Image
                      </span>
                    )}
                    <div className="min-w-0 flex-1">
                      <p className="font-medium">{item.name}</p>
                      {item.variantName ? <p className="text-sm text-ink-soft">{item.variantName}</p> : null}
                      <p className="text-sm text-ink-soft">
                        Quantité : {item.quantity} × {formatPrice(item.unitPriceCents)}
                      </p>
                    </div>
                    <p className="font-semibold tabular-nums">{formatPrice(item.lineTotalCents)}</p>
                  </li>
                ))}
              </ul>
            )}
            <dl className="mt-4 border-t border-slate-200 pt-3">
              <div className="flex justify-between py-1 text-sm">
                <dt className="text-ink-soft">Sous-total</dt>
                <dd className="tabular-nums">{formatPrice(order.subtotalCents)}</dd>
              </div>
              <div className="flex justify-between py-1 text-sm">
                <dt className="text-ink-soft">Livraison</dt>
                <dd className="tabular-nums">{shippingLabel(order.shippingCents)}</dd>
              </div>
              <div className="flex justify-between border-t border-slate-200 pt-2 text-base font-semibold">
                <dt>Total</dt>
                <dd className="tabular-nums">{formatPrice(order.totalCents)}</dd>
              </div>
            </dl>
          </Card>

          <OrderRefunds
            key={refundKey}
            orderId={order.id}
            totalCents={order.totalCents}
            {...refunds}
            refundKey={refundKey}
            lastResult={refundReply(data)}
          />

          <Card title="Suivi de la commande">
            {closure ? (
              <div data-testid="order-final-state" className="rounded-lg bg-violet-50 p-3 text-sm ring-1 ring-violet-200">
                <p className="font-semibold text-violet-900">{CLOSURE_LABELS[closure]}</p>
                <p className="mt-1 text-ink">
                  Commande close : elle ne passe plus par les étapes d'expédition. Dernière étape atteinte :{" "}
                  {FULFILMENT_LABELS[order.status]}
                  {order.trackingNumber ? ` (numéro de suivi ${order.trackingNumber})` : ""}.
                </p>
              </div>
            ) : (
              <OrderTimeline status={order.status} trackingNumber={order.trackingNumber} createdAt={order.createdAt} />
            )}
            {order.trackingUrl && order.trackingCarrier ? (
              <p className="mt-3 text-sm">
                <a href={order.trackingUrl} target="_blank" rel="noopener noreferrer" className="font-medium underline">
                  Suivre le colis sur le site de {CARRIER_LABELS[order.trackingCarrier]}
                  <span className="sr-only"> (nouvelle fenêtre)</span>
                </a>
              </p>
            ) : null}
          </Card>

          <Card
            title="Emails de la commande"
            actions={
              emails.length > 0 ? (
                <Link
                  to={`/admin/emails?order=${order.id}`}
                  className="text-sm font-medium text-ink-soft underline decoration-slate-300 hover:text-ink"
                >
                  Voir dans les emails
                </Link>
              ) : null
            }
          >
            {emails.length === 0 ? (
              <p className="text-ink-soft">Aucun email pour cette commande.</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="order-emails">
                {emails.map((email) => (
                  <li key={email.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                    <Link
                      to={`/admin/emails/${email.id}`}
                      className="font-medium underline decoration-slate-300 hover:decoration-ink"
                    >
                      {emailKindLabel(email.kind)}
                    </Link>
                    <span className="flex flex-wrap items-center gap-2 text-ink-soft">
                      <span className="tabular-nums">{formatDateTime(email.createdAt)}</span>
                      <EmailStatusBadge status={email.status} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>

        <div className="space-y-6">
          <OrderWithdrawal withdrawal={withdrawal} />
          <Card title="Client">
            <dl>
              <Line label="Nom" value={order.customer} />
              <Line label="Email" value={order.email} />
              <Line label="Téléphone" value={order.phone ? formatFrenchPhone(order.phone) : null} />
            </dl>
            {order.userId ? (
              <Link
                to={`/admin/customers/${order.userId}`}
                className="mt-2 inline-block text-sm font-medium underline decoration-slate-300 hover:decoration-ink"
              >
                Fiche client
              </Link>
            ) : null}
          </Card>
          <Card title="Adresse de livraison">
            <dl>
              <Line label="Adresse" value={order.shippingAddress} />
              {order.shippingAddress2 ? <Line label="Complément d'adresse" value={order.shippingAddress2} /> : null}
              <Line label="Code postal et ville" value={cityLine} />
              <Line label="Pays" value={order.shippingCountry} />
            </dl>
          </Card>
          {/* A closed order has nothing left to update: the card only says why it is not shipped. */}
          <Card title={closure ? "Expédition" : "Mettre à jour la commande"}>
            {fulfilmentRefusal ? (
              <p
                role="note"
                className="mb-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
                data-testid="fulfilment-refusal"
              >
                {fulfilmentRefusal}
              </p>
            ) : null}
            {closure ? null : (
              <Form method="post" {...getFormProps(form)} className="space-y-2">
                <div>
                  <label htmlFor={fields.status.id} className="block text-sm font-medium">
                    Statut
                  </label>
                  <select
                    {...getSelectProps(fields.status)}
                    key={fields.status.key}
                    className={`${selectClass} mt-1 w-full py-2.5`}
                  >
                    {FULFILMENT_STEPS.map((s) => (
                      <option key={s.status} value={s.status}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                  <FieldError id={fields.status.errorId} errors={fields.status.errors} />
                </div>
                <div>
                  <label htmlFor={fields.trackingNumber.id} className="block text-sm font-medium">
                    Numéro de suivi
                  </label>
                  <input
                    {...getInputProps(fields.trackingNumber, { type: "text" })}
                    key={fields.trackingNumber.key}
                    className="field-input mt-1"
                    autoComplete="off"
                  />
                  <FieldError id={fields.trackingNumber.errorId} errors={fields.trackingNumber.errors} />
                </div>
                <div>
                  <label htmlFor={fields.trackingCarrier.id} className="block text-sm font-medium">
                    Transporteur
                  </label>
                  <select
                    {...getSelectProps(fields.trackingCarrier)}
                    key={fields.trackingCarrier.key}
                    className={`${selectClass} mt-1 w-full py-2.5`}
                  >
                    {CARRIERS.map((c) => (
                      <option key={c} value={c}>
                        {CARRIER_LABELS[c]}
                      </option>
                    ))}
                  </select>
                  <FieldError id={fields.trackingCarrier.errorId} errors={fields.trackingCarrier.errors} />
                </div>
                {confirmShipping ? (
                  <div
                    role="alert"
                    tabIndex={-1}
                    ref={(node) => node?.focus()}
                    className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
                    data-testid="confirm-no-tracking"
                  >
                    <p>{confirmShipping}</p>
                    <button
                      type="submit"
                      name="confirmWithoutTracking"
                      value="1"
                      className={`${buttonSecondary} mt-2 w-full`}
                      disabled={pending}
                    >
                      Expédier sans numéro de suivi
                    </button>
                  </div>
                ) : null}
                <button type="submit" className={`${buttonPrimary} w-full`} disabled={pending}>
                  {pending ? "Mise à jour..." : "Mettre à jour la commande"}
                </button>
              </Form>
            )}
          </Card>
        </div>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return (
    <AdminErrorBoundary
      notFound="Commande introuvable : vérifiez le numéro de commande."
      backTo="/admin/orders"
      backLabel="Retour aux commandes"
    />
  );
}
