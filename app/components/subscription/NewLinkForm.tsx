import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { Field } from "~/components/ui/Field";
import { Honeypot } from "~/components/ui/Honeypot";
import { subscriptionLinkRequestSchema } from "~/schemas/subscription-link-request";

/**
 * « Recevoir un nouveau lien »: the subscription's email address, posted to /mon-abonnement
 * (a plain form: it works without JavaScript). The address is never prefilled.
 */
export function NewLinkForm({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "new-link";
  const [form, fields] = useForm({
    id: "subscription-new-link-form",
    lastResult: lastResult ?? undefined,
    constraint: undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: subscriptionLinkRequestSchema }),
  });
  return (
    <section
      aria-labelledby="nouveau-lien"
      className="mx-auto mt-10 max-w-xl rounded-2xl bg-white p-6 text-left shadow-sm ring-1 ring-ink/5"
    >
      <h2 id="nouveau-lien" className="font-serif text-xl">
        Recevoir un nouveau lien
      </h2>
      <p className="mt-2 text-sm text-ink-soft">
        Indiquez l'adresse email de votre abonnement : nous y envoyons un nouveau lien pour le gérer.
      </p>
      <Form method="post" action="/mon-abonnement" {...getFormProps(form)} className="mt-4 grid gap-3">
        <input type="hidden" name="intent" value="new-link" />
        <Honeypot />
        <Field label="Adresse email de l'abonnement" field={fields.email} type="email" autoComplete="email" maxLength={254} />
        {form.errors ? (
          <p role="alert" className="text-sm text-rose-700" data-testid="new-link-error">
            {form.errors.join(" ")}
          </p>
        ) : null}
        <div>
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={sending}>
            {sending ? "Envoi..." : "Recevoir un nouveau lien"}
          </button>
        </div>
      </Form>
    </section>
  );
}
