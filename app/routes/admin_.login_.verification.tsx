import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { Notice } from "~/components/admin/ui";
import { Field } from "~/components/ui/Field";
import { showToast } from "~/components/ui/Toaster";
import { actionError } from "~/http/action-errors.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { readPageForm } from "~/http/page-form.server";
import { pageHeaders } from "~/http/retry-after";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { pageMeta } from "~/lib/meta";
import { LOGIN_FAILED_TITLE } from "~/schemas/login";
import { recoveryStepSchema, totpStepSchema } from "~/schemas/two-factor";
import { AdminLoginError, DEFAULT_ADMIN_PATH, getAdminUser, LOGIN_PATH } from "~/services/admin-auth.server";
import { clearSecondStep, completeSecondStep, readSecondStep } from "~/services/admin-second-factor.server";

export const meta: MetaFunction = () => pageMeta("Code de vérification", "Second facteur de la connexion administrateur.");

export const headers: HeadersFunction = pageHeaders(NO_STORE_HEADERS);

const EXPIRED_TOAST = {
  message: "Vérification expirée",
  description: "Reconnectez-vous : le code doit être saisi dans les 5 minutes qui suivent le mot de passe.",
};

/** Back to the password, the pending step cleared. */
async function backToLogin() {
  const headers = new Headers(NO_STORE_HEADERS);
  headers.append("Set-Cookie", await clearSecondStep());
  return redirectWithError(LOGIN_PATH, EXPIRED_TOAST, { headers });
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getAdminUser(request)) throw redirect(DEFAULT_ADMIN_PATH, { headers: NO_STORE_HEADERS });
  const pending = await readSecondStep(request);
  if (!pending) throw await backToLogin();
  return data({ username: pending.user.username }, { headers: NO_STORE_HEADERS });
}

type Toast = { message: string; description: string; type: "error" };
type Intent = "code" | "recovery";

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPageForm(request);
  const intent: Intent = formData.get("intent") === "recovery" ? "recovery" : "code";
  const pending = await readSecondStep(request);
  if (!pending) return await backToLogin();

  const submission =
    intent === "recovery"
      ? parseWithZod(formData, { schema: recoveryStepSchema })
      : parseWithZod(formData, { schema: totpStepSchema });
  if (submission.status !== "success") {
    return data({ intent, result: submission.reply(), toast: null as Toast | null }, { status: 400, headers: NO_STORE_HEADERS });
  }
  const input =
    "recoveryCode" in submission.value
      ? { code: submission.value.recoveryCode, remember: false }
      : { code: submission.value.code, remember: submission.value.remember };
  try {
    const setCookies = await completeSecondStep(pending.user, request, clientAddress(request, context), input);
    const headers = new Headers(NO_STORE_HEADERS);
    for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
    return redirectWithSuccess(
      pending.redirectTo ?? DEFAULT_ADMIN_PATH,
      { message: "Connexion réussie", description: "Vous êtes maintenant connecté en tant qu'administrateur" },
      { headers },
    );
  } catch (error) {
    const refusal = error instanceof AdminLoginError ? error : actionError(error);
    if (!refusal) throw error;
    const description =
      error instanceof AdminLoginError && error.reason === "invalid_code" && intent === "recovery"
        ? "Code de secours invalide ou déjà utilisé"
        : refusal.message;
    const headers = new Headers(NO_STORE_HEADERS);
    const wait = error instanceof AdminLoginError ? error.retryAfterSeconds : (refusal.retryAfterSeconds ?? 0);
    if (wait > 0) headers.set("Retry-After", String(wait));
    return data(
      {
        intent,
        result: submission.reply({ formErrors: [description], hideFields: ["code", "recoveryCode"] }),
        toast: { message: LOGIN_FAILED_TITLE, description, type: "error" } as Toast | null,
      },
      { status: refusal.status, headers },
    );
  }
}

const submitClass =
  "mt-2 inline-flex w-full items-center justify-center rounded-lg bg-ink px-4 py-3 text-base font-semibold text-white shadow-sm hover:bg-ink/90 disabled:opacity-60";

export default function SecondStep() {
  const { username } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/admin/login/verification");

  const [codeForm, codeFields] = useForm({
    id: "totp-step",
    lastResult: actionData?.intent === "code" ? actionData.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: totpStepSchema }),
  });
  const [recoveryForm, recoveryFields] = useForm({
    id: "recovery-step",
    lastResult: actionData?.intent === "recovery" ? actionData.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: recoveryStepSchema }),
  });

  useEffect(() => {
    if (actionData?.toast) showToast(actionData.toast);
  }, [actionData]);

  const rememberProps = getInputProps(codeFields.remember, { type: "checkbox" });
  const formError = codeForm.errors?.[0] ?? recoveryForm.errors?.[0];

  return (
    <div className="flex min-h-screen flex-1 items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <p className="font-serif text-lg text-ink-soft">Maison Éclat</p>
        <h1 className="mt-1 text-2xl font-semibold">Vérification en deux étapes</h1>
        <p className="mt-2 text-sm text-ink-soft">
          Saisissez le code à 6 chiffres affiché par votre application d'authentification pour le compte{" "}
          <strong className="font-semibold text-ink">{username}</strong>.
        </p>

        {formError ? (
          <div className="mt-5">
            <Notice>
              <p className="font-semibold">{LOGIN_FAILED_TITLE}</p>
              <p id={actionData?.intent === "recovery" ? recoveryForm.errorId : codeForm.errorId}>{formError}</p>
            </Notice>
          </div>
        ) : null}

        <Form method="post" {...getFormProps(codeForm)} className="mt-6 space-y-3">
          <input type="hidden" name="intent" value="code" />
          <Field
            label="Code de vérification"
            field={codeFields.code}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={7}
          />
          <label className="flex items-start gap-2 text-sm text-ink">
            <input {...rememberProps} key={rememberProps.key} className="mt-0.5 h-4 w-4" />
            <span>
              Se souvenir de cet appareil
              <span className="block text-xs text-ink-soft">
                Le code ne sera plus demandé sur ce navigateur pendant 30 jours.
              </span>
            </span>
          </label>
          <button type="submit" disabled={submitting} className={submitClass}>
            {submitting ? "Vérification..." : "Vérifier"}
          </button>
        </Form>

        <details className="mt-6 rounded-lg border border-slate-200 p-4" open={actionData?.intent === "recovery"}>
          <summary className="cursor-pointer text-sm font-medium">Utiliser un code de secours</summary>
          <p className="mt-2 text-sm text-ink-soft">
            Sans votre téléphone, saisissez l'un des codes de secours reçus à l'activation. Chaque code ne sert qu'une fois.
          </p>
          <Form method="post" {...getFormProps(recoveryForm)} className="mt-3 space-y-3">
            <input type="hidden" name="intent" value="recovery" />
            <Field label="Code de secours" field={recoveryFields.recoveryCode} autoComplete="off" maxLength={40} />
            <button type="submit" disabled={submitting} className={submitClass}>
              Utiliser ce code de secours
            </button>
          </Form>
        </details>

        <p className="mt-6 text-center text-sm">
          <Link to="/admin/login" className="underline underline-offset-2">
            Revenir à la connexion
          </Link>
        </p>
      </div>
    </div>
  );
}
