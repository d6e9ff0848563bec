import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { CancelReasonSelect } from "~/components/subscription/CancelReasonSelect";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Field } from "~/components/ui/Field";
import { Honeypot } from "~/components/ui/Honeypot";
import { actionError } from "~/http/action-errors.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { pageHeaders, retryAfterHeaders } from "~/http/retry-after";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { subscriptionCancelSchema } from "~/schemas/subscription-cancel";
import { parseOrderNumber } from "~/schemas/tracking";
import { isHoneypotFilled } from "~/services/honeypot.server";
import { cancelSubscription, SUBSCRIPTION_NOT_FOUND_MESSAGE } from "~/services/subscriptions/cancel.server";
import { readPageForm } from "~/http/page-form.server";
import { log } from "~/log.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Résilier mon abonnement",
    "Résiliez en ligne votre abonnement aux masques Maison Éclat avec votre numéro de commande et votre adresse email : aucun prélèvement ne sera plus effectué.",
  );

export const headers: HeadersFunction = pageHeaders(NO_STORE_HEADERS);

const UNEXPECTED = "La résiliation n'a pas pu être enregistrée. Veuillez réessayer dans un instant.";

type Outcome =
  { kind: "canceled" | "already_canceled"; orderId: number; canceledAt: string } | { kind: "refused"; message: string };

/** GET /abonnement/resilier?commande=N (the link of the order confirmation email): the order number is prefilled. */
export function loader({ request }: LoaderFunctionArgs) {
  const orderId = parseOrderNumber(new URL(request.url).searchParams.get("commande"));
  return data({ orderId: orderId ? String(orderId) : null }, { headers: NO_STORE_HEADERS });
}

/** POST /abonnement/resilier: a plain form post, so it works without JavaScript. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: subscriptionCancelSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), outcome: null as Outcome | null }, { status: 400 });
  }
  // Bots fill the hidden field: cancel nothing, and say nothing more than for an unknown order.
  if (isHoneypotFilled(formData)) {
    const outcome: Outcome = { kind: "refused", message: SUBSCRIPTION_NOT_FOUND_MESSAGE };
    return data({ result: submission.reply(), outcome }, { status: 404 });
  }
  try {
    const done = await cancelSubscription(submission.value, { address: clientAddress(request, context) });
    const outcome: Outcome = { kind: done.outcome, orderId: done.orderId, canceledAt: done.canceledAt };
    return { result: submission.reply({ resetForm: true }), outcome };
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) log.error({ err: error }, "subscription cancellation failed");
    const outcome: Outcome = { kind: "refused", message: refusal?.message ?? UNEXPECTED };
    return data({ result: submission.reply(), outcome }, { status: refusal?.status ?? 503, headers: retryAfterHeaders(refusal) });
  }
}

export default function CancelSubscription() {
  const actionData = useActionData<typeof action>();
  const { orderId: prefilledOrderId } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const outcome = actionData?.outcome ?? null;

  const [form, fields] = useForm({
    id: "subscription-cancel-form",
    lastResult: actionData?.result,
    defaultValue: { orderId: prefilledOrderId ?? "" },
    constraint: undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: subscriptionCancelSchema }),
  });

  const done = outcome && outcome.kind !== "refused" ? outcome : null;

  // The confirmation replaces the form where the shopper pressed the button (low on a phone):
  // it is brought into view and focused, so the answer is seen and read out. Without JavaScript
  // the answer is a new page, shown from the top.
  const confirmation = useRef<HTMLElement>(null);
  const refusalRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const target = done ? confirmation.current : outcome?.kind === "refused" ? refusalRef.current : null;
    if (!target) return;
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  }, [done, outcome]);

  return (
    <div className="container-page py-10 md:py-16">
      <div className="mx-auto max-w-2xl">
        <h1 className="font-serif text-3xl md:text-4xl">Résilier mon abonnement</h1>
        <p className="mt-3 text-ink-soft">
          Votre abonnement se résilie ici, en ligne, à tout moment et sans frais. Il suffit du numéro de commande de votre
          abonnement et de l'adresse email utilisée lors de la commande.
        </p>

        {done ? (
          <section
            ref={confirmation}
            tabIndex={-1}
            role="status"
            aria-labelledby="resiliation-faite"
            data-testid="subscription-cancel-success"
            className="mt-8 scroll-mt-24 rounded-2xl bg-sage-100 p-6 text-sage-700 focus:outline-none"
          >
            <h2 id="resiliation-faite" className="font-serif text-2xl">
              {done.kind === "canceled" ? "Votre abonnement a été résilié." : "Votre abonnement est déjà résilié."}
            </h2>
            <p className="mt-2">
              Abonnement de la commande n°{done.orderId}, résilié le{" "}
              <span data-testid="subscription-canceled-at" className="font-semibold">
                {formatDate(done.canceledAt)}
              </span>
              .
            </p>
            <p className="mt-2">
              Aucun autre prélèvement ne sera effectué. La commande déjà payée vous reste acquise et vous est livrée.
            </p>
            {done.kind === "canceled" ? (
              <p className="mt-2">Une confirmation de la résiliation vous est envoyée par email : conservez-la.</p>
            ) : null}
            <p className="mt-4">
              <Link to="/" className="underline">
                Retour à la boutique
              </Link>
            </p>
          </section>
        ) : (
          <>
            <section aria-labelledby="ce-qui-se-passe" className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
              <h2 id="ce-qui-se-passe" className="font-serif text-xl">
                Ce qui se passe quand vous résiliez
              </h2>
              <ul className="mt-3 list-disc space-y-1 pl-5 text-ink-soft">
                <li>L'abonnement prend fin immédiatement : aucun autre prélèvement ne sera effectué.</li>
                <li>La commande déjà payée vous reste acquise : elle est préparée et livrée normalement.</li>
                <li>Aucun frais ni justificatif n'est demandé.</li>
              </ul>
            </section>

            {outcome?.kind === "refused" ? (
              <p
                ref={refusalRef}
                tabIndex={-1}
                role="alert"
                data-testid="subscription-cancel-error"
                className="mt-6 scroll-mt-24 rounded-lg bg-rose-100 p-4 text-rose-700 focus:outline-none"
              >
                {outcome.message}
              </p>
            ) : null}

            <Form
              method="post"
              {...getFormProps(form)}
              className="mt-6 grid gap-2 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5"
            >
              <Honeypot />
              <Field
                label="Numéro de commande"
                field={fields.orderId}
                inputMode="numeric"
                autoComplete="off"
                maxLength={40}
                hint="Indiqué dans l'email de confirmation de votre commande d'abonnement."
              />
              <Field label="Adresse email" field={fields.email} type="email" autoComplete="email" maxLength={254} />
              <CancelReasonSelect id="subscription-cancel-reason" />
              <div>
                <button type="submit" className="btn-primary w-full sm:w-auto" disabled={submitting}>
                  {submitting ? "Résiliation en cours..." : "Résilier mon abonnement"}
                </button>
              </div>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}
