import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { redirectWithSuccess } from "~/http/toast.server";
import { Notice } from "~/components/admin/ui";
import { Field } from "~/components/ui/Field";
import { showToast } from "~/components/ui/Toaster";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { pageHeaders } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { LOGIN_FAILED_MESSAGE, LOGIN_FAILED_TITLE, loginSchema } from "~/schemas/login";
import {
  adminRedirectTarget,
  AdminLoginError,
  demoCredentialsHint,
  getAdminUser,
  signInWithForm,
} from "~/services/admin-auth.server";
import { continueSignIn, SECOND_STEP_PATH } from "~/services/admin-second-factor.server";
import { readPageForm } from "~/http/page-form.server";
import { log } from "~/log.server";

export const meta: MetaFunction = () => pageMeta("Connexion administrateur", "Accès au back office de la boutique.");

export const headers: HeadersFunction = pageHeaders(NO_STORE_HEADERS);

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (await getAdminUser(request)) {
    throw redirect(adminRedirectTarget(redirectTo), { headers: NO_STORE_HEADERS });
  }
  return data(
    { hint: demoCredentialsHint(), redirectTo: redirectTo ? adminRedirectTarget(redirectTo) : null },
    { headers: NO_STORE_HEADERS },
  );
}

type Toast = { message: string; description: string; type: "error" };

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  const formData = await readPageForm(request.clone());
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data(
      { result: submission.reply({ hideFields: ["password"] }), toast: null as Toast | null },
      { status: 400, headers: NO_STORE_HEADERS },
    );
  }
  try {
    // remix-auth 4: returns the user or throws; we keep the session ourselves.
    const address = clientAddress(request, context);
    const user = await signInWithForm(request, address);
    const target = adminRedirectTarget(formData.get("redirectTo"));
    // An account with the second factor (on a browser it does not remember) goes on to its code.
    const next = await continueSignIn(user, request, address, target);
    const headers = new Headers(NO_STORE_HEADERS);
    for (const cookie of next.setCookies) headers.append("Set-Cookie", cookie);
    if (next.step === "code") return redirect(SECOND_STEP_PATH, { headers });
    return redirectWithSuccess(
      target,
      { message: "Connexion réussie", description: "Vous êtes maintenant connecté en tant qu'administrateur" },
      { headers },
    );
  } catch (error) {
    if (error instanceof AdminLoginError) {
      const description = error.reason === "invalid" ? LOGIN_FAILED_MESSAGE : error.message;
      const headers = new Headers(NO_STORE_HEADERS);
      if (error.retryAfterSeconds > 0) headers.set("Retry-After", String(error.retryAfterSeconds));
      return data(
        {
          result: submission.reply({ formErrors: [description], hideFields: ["password"] }),
          toast: { message: LOGIN_FAILED_TITLE, description, type: "error" } as Toast | null,
        },
        { status: error.status, headers },
      );
    }
    log.error({ err: error }, "admin sign-in failed");
    return data(
      {
        result: submission.reply({ formErrors: ["Une erreur s'est produite lors de la connexion"], hideFields: ["password"] }),
        toast: {
          message: "Erreur",
          description: "Une erreur s'est produite lors de la connexion",
          type: "error",
        } as Toast | null,
      },
      { status: 500, headers: NO_STORE_HEADERS },
    );
  }
}

export default function AdminLogin() {
  const { hint, redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/admin/login");

  const [form, fields] = useForm({
    id: "admin-login",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });

  // Failures come back as action data (no redirect): the toast is shown here, the message inline too.
  const passwordId = fields.password.id;
  useEffect(() => {
    if (!actionData?.toast) return;
    showToast(actionData.toast);
    // A refused password is not kept in the field (the server never sends it back either).
    const input = document.getElementById(passwordId);
    if (input instanceof HTMLInputElement) input.value = "";
  }, [actionData, passwordId]);

  return (
    <div className="flex min-h-screen flex-1 items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <p className="font-serif text-lg text-ink-soft">Maison Éclat</p>
        <h1 className="mt-1 text-2xl font-semibold">Connexion administrateur</h1>
        <p className="mt-2 text-sm text-ink-soft">Connectez-vous pour accéder au back office.</p>

        {form.errors?.length ? (
          <div className="mt-5">
            <Notice>
              <p className="font-semibold">{LOGIN_FAILED_TITLE}</p>
              <p id={form.errorId}>{form.errors[0]}</p>
            </Notice>
          </div>
        ) : null}

        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-1">
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <Field label="Nom d'utilisateur" field={fields.username} autoComplete="username" />
          <Field label="Mot de passe" field={fields.password} type="password" autoComplete="current-password" />
          <button
            type="submit"
            disabled={submitting}
            className="mt-2 inline-flex w-full items-center justify-center rounded-lg bg-ink px-4 py-3 text-base font-semibold text-white shadow-sm hover:bg-ink/90 disabled:opacity-60"
          >
            {submitting ? "Connexion..." : "Se connecter"}
          </button>
        </Form>

        {hint ? (
          <div
            className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
            data-testid="demo-credentials"
          >
            <p className="font-semibold">Boutique de démonstration</p>
            <p className="mt-1">
              Identifiants par défaut : <code className="whitespace-nowrap font-mono">{hint.username}</code> /{" "}
              <code className="whitespace-nowrap font-mono">{hint.password}</code>
            </p>
          </div>
        ) : null}
      </div>
    </div>
  );
}
