import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { Card, Notice, buttonDanger, buttonPrimary, buttonSecondary } from "~/components/admin/ui";
import { Field } from "~/components/ui/Field";
import { formatDateTime } from "~/lib/dates";
import { recoveryRegenerateSchema, totpConfirmSchema, totpDisableSchema } from "~/schemas/two-factor";

/** The sections of the security page (/admin/securite): each state of the second factor, and the recovery codes shown once. */

const PATH = "/admin/securite";

type Result = SubmissionResult<string[]> | undefined;

function useBusy() {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formAction === PATH;
}

/** The secret in groups of 4 characters, easier to copy by hand (apps ignore the spaces). */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

export function TotpOff({ live }: { live: boolean }) {
  const busy = useBusy();
  return (
    <Card title="Double authentification">
      {live ? (
        <div
          role="alert"
          className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
          data-testid="second-factor-missing"
        >
          Activez la double authentification : ce compte peut rembourser des commandes et effacer des clients avec son seul mot de
          passe.
        </div>
      ) : (
        <p className="mb-4 text-sm text-ink-soft">
          Facultative dans la boutique de démonstration, elle est recommandée en production.
        </p>
      )}
      <p className="mb-4 text-sm">
        État : <strong>désactivée</strong>. Seul le mot de passe est demandé à la connexion.
      </p>
      <Form method="post" action={PATH}>
        <input type="hidden" name="intent" value="start" />
        <button type="submit" className={buttonPrimary} disabled={busy}>
          Activer la double authentification
        </button>
      </Form>
    </Card>
  );
}

export function TotpEnrolment({
  enrolment,
  username,
  lastResult,
}: {
  enrolment: { secret: string; uri: string; qrSvg: string };
  username: string;
  lastResult: Result;
}) {
  const busy = useBusy();
  const [form, fields] = useForm({
    id: "totp-confirm",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: totpConfirmSchema }),
  });
  return (
    <Card title="Activer la double authentification">
      <ol className="list-decimal space-y-5 pl-5 text-sm">
        <li>
          <p>Scannez ce QR code avec votre application d'authentification.</p>
          <div
            role="img"
            aria-label={`QR code de la double authentification du compte ${username}`}
            className="mt-3 w-48 max-w-full rounded-lg border border-slate-200 bg-white p-2 [&>svg]:h-auto [&>svg]:w-full"
            dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
          />
        </li>
        <li>
          <p>Ou saisissez cette clé dans l'application (type : basé sur l'heure) :</p>
          <p className="mt-2">
            <code className="break-all rounded bg-slate-100 px-2 py-1 font-mono text-base" data-testid="totp-secret">
              {grouped(enrolment.secret)}
            </code>
          </p>
          <details className="mt-2">
            <summary className="cursor-pointer text-ink-soft">Adresse otpauth:// complète</summary>
            <p className="mt-1 break-all font-mono text-xs" data-testid="totp-uri">
              {enrolment.uri}
            </p>
          </details>
        </li>
        <li>
          <p>Saisissez le code à 6 chiffres que l'application affiche : la double authentification sera alors activée.</p>
          <Form method="post" action={PATH} {...getFormProps(form)} className="mt-3 max-w-xs space-y-3">
            <input type="hidden" name="intent" value="confirm" />
            {form.errors?.length ? <Notice>{form.errors[0]}</Notice> : null}
            <Field
              label="Code de vérification"
              field={fields.code}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={7}
            />
            <button type="submit" className={buttonPrimary} disabled={busy}>
              Activer
            </button>
          </Form>
        </li>
      </ol>
      <Form method="post" action={PATH} className="mt-6 border-t border-slate-100 pt-4">
        <input type="hidden" name="intent" value="cancel" />
        <button type="submit" className={buttonSecondary} disabled={busy}>
          Annuler l'activation
        </button>
      </Form>
    </Card>
  );
}

export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section
      aria-labelledby="recovery-codes-title"
      className="mb-6 rounded-xl border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-950 sm:p-6"
    >
      <h2 id="recovery-codes-title" className="text-lg font-semibold">
        Vos codes de secours
      </h2>
      <p className="mt-1">
        Notez-les maintenant et gardez-les en lieu sûr : ils ne seront plus affichés. Chacun remplace une fois le code de
        l'application, si vous n'avez plus votre téléphone.
      </p>
      <ol className="mt-3 grid max-w-md grid-cols-2 gap-2 font-mono text-base" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="rounded bg-white px-2 py-1">
            {code}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function TotpEnabled({
  enabledAt,
  recoveryCodesLeft,
  regenerateResult,
  disableResult,
}: {
  enabledAt: string;
  recoveryCodesLeft: number;
  regenerateResult: Result;
  disableResult: Result;
}) {
  const busy = useBusy();
  const [regenerateForm, regenerateFields] = useForm({
    id: "recovery-regenerate",
    lastResult: regenerateResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: recoveryRegenerateSchema }),
  });
  const [disableForm, disableFields] = useForm({
    id: "totp-disable",
    lastResult: disableResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: totpDisableSchema }),
  });
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <Card title="Double authentification" className="xl:col-span-2">
        <p className="text-sm" data-testid="second-factor-state">
          État : <strong>activée</strong> depuis le {formatDateTime(enabledAt)}. Codes de secours restants :{" "}
          <strong>{recoveryCodesLeft}</strong>.
        </p>
      </Card>
      <section aria-labelledby="regenerate-title" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="regenerate-title" className="mb-2 text-lg font-semibold">
          Nouveaux codes de secours
        </h2>
        <p className="mb-3 text-sm text-ink-soft">Les 10 nouveaux codes remplacent tous les anciens.</p>
        <Form
          method="post"
          action={PATH}
          {...getFormProps(regenerateForm)}
          aria-labelledby="regenerate-title"
          className="max-w-xs space-y-3"
        >
          <input type="hidden" name="intent" value="regenerate" />
          {regenerateForm.errors?.length ? <Notice>{regenerateForm.errors[0]}</Notice> : null}
          <Field
            label="Code de vérification"
            field={regenerateFields.code}
            autoComplete="one-time-code"
            maxLength={40}
            hint="6 chiffres, ou un code de secours"
          />
          <button type="submit" className={buttonSecondary} disabled={busy}>
            Générer de nouveaux codes
          </button>
        </Form>
      </section>
      <section aria-labelledby="disable-title" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="disable-title" className="mb-2 text-lg font-semibold">
          Désactiver la double authentification
        </h2>
        <p className="mb-3 text-sm text-ink-soft">
          Saisissez un code de vérification (ou un code de secours), ou bien votre mot de passe. Les appareils mémorisés seront
          oubliés.
        </p>
        <Form
          method="post"
          action={PATH}
          {...getFormProps(disableForm)}
          aria-labelledby="disable-title"
          className="max-w-xs space-y-3"
        >
          <input type="hidden" name="intent" value="disable" />
          {disableForm.errors?.length ? <Notice>{disableForm.errors[0]}</Notice> : null}
          <Field
            label="Code de vérification"
            field={disableFields.code}
            autoComplete="one-time-code"
            maxLength={40}
            hint="6 chiffres, ou un code de secours"
          />
          <Field label="Ou mot de passe" field={disableFields.password} type="password" autoComplete="current-password" />
          <button type="submit" className={buttonDanger} disabled={busy}>
            Désactiver
          </button>
        </Form>
      </section>
    </div>
  );
}
