import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Field, TextareaField } from "~/components/ui/Field";
import { Honeypot } from "~/components/ui/Honeypot";
import { useHydrated } from "~/components/ui/useHydrated";
import { actionError } from "~/http/action-errors.server";
import { clientAddress } from "~/http/client-address.server";
import { pageHeaders, retryAfterHeaders } from "~/http/retry-after";
import { OPENING_HOURS } from "~/content/brand";
import { pageMeta } from "~/lib/meta";
import { CONTACT_FAILURE_MESSAGE, CONTACT_SUCCESS_MESSAGE, contactSchema } from "~/schemas/contact";
import { createContactRequest } from "~/services/contacts.server";
import { isHoneypotFilled } from "~/services/honeypot.server";
import { throttlePublicWrite } from "~/services/limits.server";
import { getSettings } from "~/services/settings.server";
import { readPageForm } from "~/http/page-form.server";
import { log } from "~/log.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Contact",
    "Une question sur nos masques au collagène ou votre commande ? Écrivez-nous, nous répondons sous 24 h ouvrées.",
  );

export const headers: HeadersFunction = pageHeaders();

export async function loader(_: LoaderFunctionArgs) {
  return { settings: await getSettings() };
}

type Outcome = "success" | "error" | "limited";

/** Messages stored are counted per client address: 429 past the limit (limits.server.ts), the message kept in the form. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: contactSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), outcome: null as Outcome | null, message: null as string | null }, { status: 400 });
  }
  // Bots fill the hidden field: answer as if all went well, store nothing.
  if (isHoneypotFilled(formData)) {
    return { result: submission.reply({ resetForm: true }), outcome: "success" as Outcome, message: null };
  }
  try {
    const input = submission.value;
    await throttlePublicWrite("contact-form", clientAddress(request, context), async () => await createContactRequest(input));
  } catch (error) {
    const refusal = actionError(error);
    if (refusal) {
      return data(
        { result: submission.reply(), outcome: "limited" as Outcome, message: refusal.message },
        { status: refusal.status, headers: retryAfterHeaders(refusal) },
      );
    }
    log.error({ err: error }, "contact request not stored");
    return data({ result: submission.reply(), outcome: "error" as Outcome, message: null }, { status: 503 });
  }
  return { result: submission.reply({ resetForm: true }), outcome: "success" as Outcome, message: null };
}

const BANNER_DURATION = 5000;

const SOCIAL = [
  { href: "https://www.instagram.com/maisoneclat", label: "Instagram" },
  { href: "https://www.facebook.com/maisoneclat", label: "Facebook" },
  { href: "https://www.tiktok.com/@maisoneclat", label: "TikTok" },
];

export default function Contact() {
  const { settings } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  // The banner of the last answer, until it has been shown for 5 s. Derived from the answer, so
  // that mounting the page sets no state: a render of this component alone (children skipped)
  // would drop the form's subscriptions to its error messages (Conform), and an empty submit
  // with JavaScript would then show no message.
  const [expired, setExpired] = useState<unknown>(null);
  const banner = actionData?.outcome && expired !== actionData ? actionData.outcome : null;

  // The answer is brought into view: without JavaScript the form posts to #ecrire (the browser
  // scrolls there); with it, focus moves to the message that reports the result.
  const hydrated = useHydrated();
  const answer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (actionData?.outcome) answer.current?.focus();
  }, [actionData]);

  useEffect(() => {
    if (!actionData?.outcome) return;
    const timer = setTimeout(() => setExpired(actionData), BANNER_DURATION);
    return () => clearTimeout(timer);
  }, [actionData]);

  const [form, fields] = useForm({
    id: "contact-form",
    lastResult: actionData?.result,
    constraint: undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
  });

  return (
    <div className="container-page py-10 md:py-16">
      <h1 className="font-serif text-3xl md:text-4xl">Contactez-nous</h1>
      <p className="mt-3 max-w-2xl text-ink-soft">
        Une question sur nos masques, votre commande ou un abonnement ? Notre équipe vous répond du lundi au samedi.
      </p>

      <div className="mt-10 grid gap-10 lg:grid-cols-[1fr_1.4fr]">
        <aside className="space-y-8">
          <section aria-labelledby="coordonnees">
            <h2 id="coordonnees" className="font-serif text-xl">
              Nos coordonnées
            </h2>
            <address className="mt-3 space-y-2 not-italic text-ink-soft">
              <p className="whitespace-pre-line">{settings.siteAddress}</p>
              <p>
                Téléphone :{" "}
                <a className="text-ink underline" href={`tel:${settings.sitePhone.replace(/[^+0-9]/g, "")}`}>
                  {settings.sitePhone}
                </a>
              </p>
              <p>
                Email :{" "}
                <a className="text-ink underline" href={`mailto:${settings.siteEmail}`}>
                  {settings.siteEmail}
                </a>
              </p>
            </address>
          </section>
          <section aria-labelledby="horaires">
            <h2 id="horaires" className="font-serif text-xl">
              Horaires d'ouverture
            </h2>
            <dl className="mt-3 space-y-1 text-ink-soft">
              {OPENING_HOURS.map((h) => (
                <div key={h.days} className="flex justify-between gap-4 border-b border-ink/5 py-1.5">
                  <dt>{h.days}</dt>
                  <dd className="font-medium text-ink">{h.hours}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section aria-labelledby="reseaux">
            <h2 id="reseaux" className="font-serif text-xl">
              Suivez-nous
            </h2>
            <ul className="mt-3 flex flex-wrap gap-3">
              {SOCIAL.map((s) => (
                <li key={s.label}>
                  <a href={s.href} rel="noopener noreferrer" target="_blank" className="btn-secondary">
                    {s.label}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </aside>

        <section aria-labelledby="ecrire" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5 md:p-8">
          <h2 id="ecrire" className="font-serif text-2xl">
            Envoyez-nous un message
          </h2>
          <div ref={answer} tabIndex={-1} data-testid="contact-answer" className="focus:outline-none">
            {banner === "success" ? (
              <p role="status" data-testid="contact-success" className="mt-4 rounded-lg bg-sage-100 p-4 text-sage-700">
                {CONTACT_SUCCESS_MESSAGE}
              </p>
            ) : null}
            {actionData?.outcome === "limited" ? (
              <p role="alert" data-testid="contact-limited" className="mt-4 rounded-lg bg-rose-100 p-4 text-rose-700">
                {actionData.message}
              </p>
            ) : null}
            {banner === "error" ? (
              <p role="alert" data-testid="contact-error" className="mt-4 rounded-lg bg-rose-100 p-4 text-rose-700">
                {CONTACT_FAILURE_MESSAGE}
              </p>
            ) : null}
          </div>
          <Form
            method="post"
            action={hydrated ? undefined : "/contact#ecrire"}
            {...getFormProps(form)}
            className="mt-6 grid gap-2 sm:grid-cols-2"
          >
            <Honeypot />
            <Field label="Nom" field={fields.name} autoComplete="name" />
            <Field label="Email" field={fields.email} type="email" autoComplete="email" />
            <Field label="Objet" field={fields.subject} className="sm:col-span-2" />
            <TextareaField label="Message" field={fields.message} rows={6} className="sm:col-span-2" />
            <div className="sm:col-span-2">
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={submitting}>
                {submitting ? "Envoi en cours..." : "Envoyer le message"}
              </button>
            </div>
          </Form>
        </section>
      </div>
    </div>
  );
}
