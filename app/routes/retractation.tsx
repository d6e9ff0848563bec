import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { WithdrawalRightsSummary } from "~/components/shop/WithdrawalRightsSummary";
import { Field, TextareaField } from "~/components/ui/Field";
import { Honeypot } from "~/components/ui/Honeypot";
import { actionError } from "~/http/action-errors.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { readPageForm } from "~/http/page-form.server";
import { pageHeaders, retryAfterHeaders } from "~/http/retry-after";
import { withdrawalRights } from "~/legal/withdrawal-rights";
import { pageMeta } from "~/lib/meta";
import { parseOrderNumber } from "~/schemas/tracking";
import {
  WITHDRAWAL_NEUTRAL_MESSAGE,
  WITHDRAWAL_NO_ACK_MESSAGE,
  WITHDRAWAL_REASON_MAX,
  withdrawalSchema,
} from "~/schemas/withdrawal";
import { isHoneypotFilled } from "~/services/honeypot.server";
import { getSettings } from "~/services/settings.server";
import { requestWithdrawal } from "~/services/withdrawals.server";
import { log } from "~/log.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Se rétracter du contrat",
    "Exercez en ligne votre droit de rétractation sur une commande Maison Éclat : numéro de commande, adresse email, confirmation, accusé de réception par email.",
  );

export const headers: HeadersFunction = pageHeaders(NO_STORE_HEADERS);

const DONE_PARAM = "demande";
const UNEXPECTED = "Votre demande n'a pas pu être enregistrée. Veuillez réessayer dans un instant.";

/**
 * GET /retractation (the footer's « Se rétracter du contrat ici », the order confirmation email's
 * link with ?commande=N): the form. GET /retractation?demande=envoyee: the neutral answer,
 * after the request was confirmed (post/redirect/get).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const orderId = parseOrderNumber(params.get("commande"));
  const settings = await getSettings();
  return data(
    {
      done: params.get(DONE_PARAM) === "envoyee",
      orderId: orderId ? String(orderId) : null,
      rights: withdrawalRights(settings),
    },
    { headers: NO_STORE_HEADERS },
  );
}

type Values = { orderId: string; email: string; reason: string };

/**
 * POST /retractation, plain form posts (no JavaScript needed), in two steps told apart by
 * `intent`: `review` checks the fields and shows the request to confirm (its values in hidden
 * fields), `edit` goes back to the form with them, `confirm` records it and redirects to the
 * neutral answer, the same whether an order matched or not.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: withdrawalSchema });
  if (submission.status !== "success") {
    return data(
      { step: "form" as const, result: submission.reply(), values: null as Values | null, refusal: null as string | null },
      { status: 400 },
    );
  }
  const { intent, orderId, email, reason } = submission.value;
  const values: Values = { orderId: String(parseOrderNumber(orderId) ?? orderId), email, reason: reason ?? "" };
  if (intent === "review") return { step: "confirm" as const, result: submission.reply(), values, refusal: null };
  if (intent === "edit") return { step: "form" as const, result: null, values, refusal: null };

  // Bots fill the hidden field: record nothing, and answer as for any other request.
  if (!isHoneypotFilled(formData)) {
    try {
      await requestWithdrawal(values, { address: clientAddress(request, context) });
    } catch (error) {
      const refusal = actionError(error);
      if (!refusal) log.error({ err: error }, "withdrawal request failed");
      return data(
        { step: "confirm" as const, result: submission.reply(), values, refusal: refusal?.message ?? UNEXPECTED },
        { status: refusal?.status ?? 503, headers: retryAfterHeaders(refusal) },
      );
    }
  }
  return redirect(`/retractation?${DONE_PARAM}=envoyee`, { headers: NO_STORE_HEADERS });
}

export default function Withdrawal() {
  const { done, orderId, rights } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const step = done ? "done" : (actionData?.step ?? "form");

  return (
    <div className="container-page py-10 md:py-16">
      <div className="mx-auto max-w-2xl">
        <h1 className="font-serif text-3xl md:text-4xl">Se rétracter du contrat</h1>
        <p className="mt-3 text-ink-soft">
          Vous avez changé d'avis sur une commande ? Exercez ici votre droit de rétractation, en ligne, sans avoir à vous
          justifier : il suffit du numéro de commande et de l'adresse email utilisée lors de la commande.
        </p>

        <div className="mt-8">
          {step === "done" ? (
            <DoneStep />
          ) : step === "confirm" && actionData?.values ? (
            <ConfirmStep values={actionData.values} refusal={actionData.refusal} />
          ) : (
            <FormStep
              key={actionData?.values ? "edit" : "new"}
              defaults={actionData?.values ?? { orderId: orderId ?? "", email: "", reason: "" }}
              lastResult={actionData?.step === "form" ? actionData.result : null}
            />
          )}
        </div>

        <div className="mt-8">
          <WithdrawalRightsSummary rights={rights} />
        </div>
      </div>
    </div>
  );
}

/** Focuses a step's heading when it replaces another, so it is seen and read out. */
function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "start" });
    ref.current?.focus({ preventScroll: true });
  }, []);
  return ref;
}

type LastResult = NonNullable<ReturnType<typeof useActionData<typeof action>>>["result"];

function FormStep({ defaults, lastResult }: { defaults: Values; lastResult: LastResult }) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const [form, fields] = useForm({
    id: "withdrawal-form",
    lastResult: lastResult ?? undefined,
    defaultValue: defaults,
    constraint: undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: withdrawalSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="grid gap-2 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5"
      data-testid="withdrawal-form-step"
    >
      <h2 className="font-serif text-xl">Votre demande</h2>
      <p className="mb-2 text-sm text-ink-soft">Étape 1 sur 2 : vous vérifierez votre demande avant de la confirmer.</p>
      <Honeypot />
      <input type="hidden" name="intent" value="review" />
      <Field
        label="Numéro de commande"
        field={fields.orderId}
        inputMode="numeric"
        autoComplete="off"
        maxLength={40}
        hint="9 chiffres, indiqués dans l'email de confirmation de votre commande."
      />
      <Field label="Adresse email de la commande" field={fields.email} type="email" autoComplete="email" maxLength={254} />
      <TextareaField label={`Motif (facultatif, ${WITHDRAWAL_REASON_MAX} caractères au plus)`} field={fields.reason} rows={4} />
      <div>
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={submitting}>
          Continuer
        </button>
      </div>
    </Form>
  );
}

function ConfirmStep({ values, refusal }: { values: Values; refusal: string | null }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  return (
    <section
      aria-labelledby="confirmer"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5"
      data-testid="withdrawal-confirm-step"
    >
      <h2 id="confirmer" ref={heading} tabIndex={-1} className="scroll-mt-24 font-serif text-xl focus:outline-none">
        Confirmez votre demande de rétractation
      </h2>
      <p className="mt-1 text-sm text-ink-soft">Étape 2 sur 2 : vérifiez votre demande, puis confirmez-la.</p>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
        <dt className="text-ink-soft">Commande</dt>
        <dd className="font-semibold" data-testid="withdrawal-recap-order">
          n°{values.orderId}
        </dd>
        <dt className="text-ink-soft">Adresse email</dt>
        <dd className="font-semibold [overflow-wrap:anywhere]" data-testid="withdrawal-recap-email">
          {values.email}
        </dd>
        <dt className="text-ink-soft">Motif</dt>
        <dd className="whitespace-pre-line [overflow-wrap:anywhere]" data-testid="withdrawal-recap-reason">
          {values.reason || <span className="text-ink-soft">Aucun (facultatif)</span>}
        </dd>
      </dl>
      <p className="mt-4 text-sm">
        En confirmant, vous nous notifiez votre rétractation du contrat de cette commande. Un accusé de réception vous est envoyé
        par email.
      </p>
      {refusal ? (
        <p role="alert" className="mt-4 rounded-lg bg-rose-100 p-4 text-sm text-rose-700" data-testid="withdrawal-error">
          {refusal}
        </p>
      ) : null}
      <Form method="post" className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
        <Honeypot />
        <input type="hidden" name="orderId" value={values.orderId} />
        <input type="hidden" name="email" value={values.email} />
        <input type="hidden" name="reason" value={values.reason} />
        <button type="submit" name="intent" value="confirm" className="btn-primary w-full sm:w-auto" disabled={submitting}>
          Confirmer la rétractation
        </button>
        <button type="submit" name="intent" value="edit" className="btn-secondary w-full sm:w-auto" disabled={submitting}>
          Modifier ma demande
        </button>
      </Form>
    </section>
  );
}

function DoneStep() {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section
      role="status"
      aria-labelledby="demande-envoyee"
      className="rounded-2xl bg-sage-100 p-6 text-sage-700"
      data-testid="withdrawal-done"
    >
      <h2 id="demande-envoyee" ref={heading} tabIndex={-1} className="scroll-mt-24 font-serif text-2xl focus:outline-none">
        Demande envoyée
      </h2>
      <p className="mt-2" data-testid="withdrawal-neutral">
        {WITHDRAWAL_NEUTRAL_MESSAGE}
      </p>
      <p className="mt-2">L'accusé de réception date votre demande : conservez-le.</p>
      <p className="mt-2" data-testid="withdrawal-no-ack">
        {WITHDRAWAL_NO_ACK_MESSAGE.replace(/page Contact.*$/, "")}
        <Link to="/contact" className="font-semibold underline">
          page Contact
        </Link>
        {WITHDRAWAL_NO_ACK_MESSAGE.replace(/^.*page Contact/, "")}
      </p>
      <p className="mt-4">
        <Link to="/" className="underline">
          Retour à la boutique
        </Link>
      </p>
    </section>
  );
}
