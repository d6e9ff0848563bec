import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { PageHeader } from "~/components/admin/ui";
import { RecoveryCodes, TotpEnabled, TotpEnrolment, TotpOff } from "~/components/admin/SecondFactorSettings";
import { showToast } from "~/components/ui/Toaster";
import { actionError, refusalReply } from "~/http/action-errors.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { readPageForm } from "~/http/page-form.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { getConfig } from "~/config.server";
import { pageMeta } from "~/lib/meta";
import { recoveryRegenerateSchema, totpConfirmSchema, totpDisableSchema } from "~/schemas/two-factor";
import { AdminLoginError } from "~/services/admin-auth.server";
import { verifyAdminProof } from "~/services/admin-second-factor.server";
import {
  cancelTotpEnrolment,
  confirmTotpEnrolment,
  disableTotp,
  getTotpStatus,
  regenerateRecoveryCodes,
  startTotpEnrolment,
} from "~/services/admin-totp.server";

export const meta: MetaFunction = () => pageMeta("Sécurité du compte", "Double authentification du compte administrateur.");

const PATH = "/admin/securite";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return data(
    { status: await getTotpStatus(admin), live: getConfig().mode === "live", username: admin.username },
    { headers: NO_STORE_HEADERS },
  );
}

type Intent = "confirm" | "regenerate" | "disable";
type Toast = { message: string; description: string; type: "success" | "error" };

/** The action's answer for one of the page's forms: its Conform reply, recovery codes to show once, a toast. */
function answer(intent: Intent, body: { result?: unknown; recoveryCodes?: string[]; toast?: Toast }, status = 200) {
  return data(
    { intent, result: body.result, recoveryCodes: body.recoveryCodes ?? null, toast: body.toast ?? null },
    { status, headers: NO_STORE_HEADERS },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readPageForm(request);
  const intent = String(form.get("intent") ?? "");
  const address = clientAddress(request, context);

  if (intent === "start" || intent === "cancel") {
    if (intent === "start") await startTotpEnrolment(admin.id);
    else await cancelTotpEnrolment(admin.id);
    return redirectWithSuccess(
      PATH,
      intent === "start"
        ? { message: "Activation commencée", description: "Scannez le QR code, puis saisissez le code affiché." }
        : { message: "Activation annulée", description: "La double authentification reste désactivée." },
      { headers: NO_STORE_HEADERS },
    );
  }
  if (intent !== "confirm" && intent !== "regenerate" && intent !== "disable") {
    return answer("confirm", { toast: { message: "Action inconnue", description: "Rechargez la page.", type: "error" } }, 400);
  }

  const submission =
    intent === "confirm"
      ? parseWithZod(form, { schema: totpConfirmSchema })
      : intent === "regenerate"
        ? parseWithZod(form, { schema: recoveryRegenerateSchema })
        : parseWithZod(form, { schema: totpDisableSchema });
  if (submission.status !== "success") {
    return answer(intent, { result: submission.reply({ hideFields: ["password"] }) }, 400);
  }
  const value = submission.value as { code?: string; password?: string };

  try {
    if (intent === "confirm") {
      const recoveryCodes = await confirmTotpEnrolment(admin.id, value.code!);
      return answer(intent, {
        result: submission.reply({ resetForm: true }),
        recoveryCodes,
        toast: { message: "Double authentification activée", description: "Notez vos codes de secours.", type: "success" },
      });
    }
    await verifyAdminProof(admin, address, value.code !== undefined ? { code: value.code } : { password: value.password! });
    if (intent === "regenerate") {
      const recoveryCodes = await regenerateRecoveryCodes(admin.id);
      return answer(intent, {
        result: submission.reply({ resetForm: true }),
        recoveryCodes,
        toast: { message: "Nouveaux codes de secours", description: "Les anciens codes ne fonctionnent plus.", type: "success" },
      });
    }
    await disableTotp(admin.id);
    return redirectWithSuccess(
      PATH,
      {
        message: "Double authentification désactivée",
        description: "Seul le mot de passe est désormais demandé à la connexion.",
      },
      { headers: NO_STORE_HEADERS },
    );
  } catch (error) {
    if (error instanceof AdminLoginError) {
      const field = error.reason === "invalid" ? "password" : "code";
      const message =
        error.reason === "invalid"
          ? "Mot de passe incorrect"
          : error.reason === "invalid_code"
            ? "Code invalide ou déjà utilisé"
            : error.message;
      const result = submission.reply({
        ...(error.status === 401 ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
        hideFields: ["password", "code"],
      });
      return answer(intent, { result, toast: { message: "Action refusée", description: message, type: "error" } }, error.status);
    }
    const refusal = actionError(error);
    if (!refusal) throw error;
    return answer(
      intent,
      {
        result: submission.reply({ ...refusalReply(refusal), hideFields: ["password", "code"] }),
        toast: { message: "Action refusée", description: refusal.message, type: "error" },
      },
      refusal.status,
    );
  }
}

export default function SecurityPage() {
  const { status, live, username } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

  useEffect(() => {
    if (actionData?.toast) showToast(actionData.toast);
  }, [actionData]);

  const lastResult = (intent: Intent) => (actionData?.intent === intent ? (actionData.result as never) : undefined);

  return (
    <>
      <PageHeader title="Sécurité du compte">
        <p className="mt-2 max-w-2xl text-sm text-ink-soft">
          La double authentification demande, après le mot de passe, un code à 6 chiffres donné par une application
          d'authentification (Google Authenticator, Microsoft Authenticator, 2FAS, Aegis, 1Password…). Un compte qui rembourse et
          efface des clients doit en avoir une.
        </p>
      </PageHeader>

      {actionData?.recoveryCodes ? <RecoveryCodes codes={actionData.recoveryCodes} /> : null}

      {status.state === "off" ? <TotpOff live={live} /> : null}
      {status.state === "pending" ? (
        <TotpEnrolment enrolment={status} username={username} lastResult={lastResult("confirm")} />
      ) : null}
      {status.state === "on" ? (
        <TotpEnabled
          enabledAt={status.enabledAt}
          recoveryCodesLeft={status.recoveryCodesLeft}
          regenerateResult={lastResult("regenerate")}
          disableResult={lastResult("disable")}
        />
      ) : null}
    </>
  );
}
