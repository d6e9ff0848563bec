import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AddressFields } from "~/components/ui/AddressFields";
import { Field } from "~/components/ui/Field";
import { Honeypot } from "~/components/ui/Honeypot";
import { deliverySchema, REMINDER_CONSENT_LABEL } from "~/schemas/delivery";
import type { DeliveryDefaults } from "~/services/cart.server";

type DeliveryActionData = { ok: boolean; intent: string; orderId?: number; result?: SubmissionResult<string[]> };

/**
 * Cart step 2. Posts to /panier (intent=delivery): the server creates or updates the order,
 * then the payment step opens. A plain form post without JavaScript.
 */
export function DeliveryForm({
  defaults,
  lastResult,
  onSuccess,
  children,
}: {
  defaults: DeliveryDefaults | null;
  /** The server's answer to a post made without JavaScript (page mode). */
  lastResult?: SubmissionResult<string[]>;
  onSuccess: (orderId: number) => void;
  /** Extra controls next to the submit button (the back link). */
  children?: React.ReactNode;
}) {
  const fetcher = useFetcher<DeliveryActionData>();
  const submitting = fetcher.state !== "idle";
  const handled = useRef<unknown>(null);

  const [form, fields] = useForm({
    id: "delivery-form",
    lastResult: fetcher.data?.result ?? lastResult,
    defaultValue: defaults ?? undefined,
    constraint: undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deliverySchema }),
  });

  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state !== "idle" || !data || handled.current === data) return;
    handled.current = data;
    if (data.ok && data.orderId) onSuccess(data.orderId);
  }, [fetcher.state, fetcher.data, onSuccess]);

  return (
    <fetcher.Form method="post" action="/panier" {...getFormProps(form)} className="relative grid gap-x-4 gap-y-1 sm:grid-cols-2">
      <input type="hidden" name="intent" value="delivery" />
      <Honeypot />
      {form.errors?.length ? (
        <p
          role="alert"
          id={form.errorId}
          data-testid="delivery-form-error"
          className="mb-2 rounded-lg bg-rose-100 p-3 text-sm text-rose-700 sm:col-span-2"
        >
          {form.errors[0]}
        </p>
      ) : null}
      <Field label="Prénom" field={fields.firstName} autoComplete="shipping given-name" maxLength={60} />
      <Field label="Nom" field={fields.lastName} autoComplete="shipping family-name" maxLength={60} />
      <Field label="Email" field={fields.email} type="email" autoComplete="email" className="sm:col-span-2" maxLength={254} />
      <AddressFields fields={fields} />
      <p className="text-sm text-ink-soft sm:col-span-2">Livraison en France métropolitaine, en colis suivi, offerte.</p>
      <div className="mt-2 text-sm sm:col-span-2">
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            name={fields.reminderConsent.name}
            defaultChecked={defaults?.reminderConsent === true}
            aria-describedby="reminder-consent-hint"
            className="mt-0.5 h-4 w-4 shrink-0 accent-rose-600"
          />
          <span>{REMINDER_CONSENT_LABEL}</span>
        </label>
        <p id="reminder-consent-hint" className="ml-6 text-ink-soft">
          Un seul email, 4 heures après, avec un lien pour vous désinscrire.
        </p>
      </div>
      {form.errors?.length ? (
        <p
          id={form.errorId}
          role="alert"
          data-testid="delivery-error"
          className="rounded-xl border border-rose-200 bg-rose-50 p-3 text-sm text-rose-700 sm:col-span-2"
        >
          {form.errors[0]}
        </p>
      ) : null}
      <div className="mt-3 flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
        {children}
        <button type="submit" className="btn-primary" disabled={submitting}>
          {submitting ? "Enregistrement..." : "Continuer vers le paiement"}
        </button>
      </div>
    </fetcher.Form>
  );
}
