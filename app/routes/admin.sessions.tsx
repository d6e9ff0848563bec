import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { Badge, buttonSecondary, PageHeader } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { clearAdminCookie, LOGIN_PATH } from "~/services/admin-auth.server";
import { listAdminSessions, revokeAdminSession, revokeUserSessions } from "~/services/admin-sessions.server";
import { readPageForm } from "~/http/page-form.server";

export const meta: MetaFunction = () => pageMeta("Sessions ouvertes", "Vos sessions du back office, et leur révocation.");

const PATH = "/admin/sessions";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return data({ sessions: await listAdminSessions(admin.id, admin.sessionId) }, { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  const admin = await requireAdmin(request);
  const form = await readPageForm(request);
  const intent = form.get("intent");

  if (intent === "revoke-others") {
    const count = await revokeUserSessions(admin.id, { keepId: admin.sessionId });
    const description =
      count === 0
        ? "Aucune autre session n'était ouverte."
        : count === 1
          ? "1 autre session a été fermée."
          : `${count} autres sessions ont été fermées.`;
    return redirectWithSuccess(PATH, { message: "Autres sessions révoquées", description }, { headers: NO_STORE_HEADERS });
  }

  const id = String(form.get("id") ?? "");
  if (intent !== "revoke" || !(await revokeAdminSession(admin.id, id))) {
    return redirectWithError(
      PATH,
      { message: "Session introuvable", description: "Cette session est déjà fermée ou a expiré." },
      { headers: NO_STORE_HEADERS },
    );
  }
  if (id === admin.sessionId) {
    // The session in use: this is a sign-out.
    const headers = new Headers(NO_STORE_HEADERS);
    headers.append("Set-Cookie", await clearAdminCookie());
    return redirectWithSuccess(
      LOGIN_PATH,
      { message: "Session révoquée", description: "Vous avez été déconnecté du back office." },
      { headers },
    );
  }
  return redirectWithSuccess(
    PATH,
    { message: "Session révoquée", description: "L'appareil qui l'utilisait devra se reconnecter." },
    { headers: NO_STORE_HEADERS },
  );
}

export default function AdminSessions() {
  const { sessions } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === PATH;
  const others = sessions.filter((s) => !s.current).length;

  return (
    <>
      <PageHeader
        title="Sessions ouvertes"
        actions={
          others > 0 ? (
            <Form method="post" action={PATH}>
              <input type="hidden" name="intent" value="revoke-others" />
              <button type="submit" className={buttonSecondary} disabled={busy}>
                Révoquer les autres sessions
              </button>
            </Form>
          ) : null
        }
      >
        <p className="mt-2 max-w-2xl text-sm text-ink-soft">
          Chaque connexion au back office ouvre une session, valable 12 heures. Révoquez une session que vous ne reconnaissez pas
          : l'appareil qui l'utilise est aussitôt déconnecté.
        </p>
      </PageHeader>

      <ul className="space-y-3" aria-label="Vos sessions">
        {sessions.map((s) => {
          const opened = formatDateTime(s.createdAt);
          return (
            <li
              key={s.id}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
              data-testid="admin-session"
            >
              <div className="flex items-start justify-between gap-3">
                <h2 className="flex min-w-0 flex-wrap items-center gap-2 text-base font-semibold">
                  <span className="break-all">{s.device}</span>
                  {s.current ? <Badge tone="green">Cette session</Badge> : null}
                </h2>
                {s.current ? null : (
                  <Form method="post" action={PATH} className="shrink-0">
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="id" value={s.id} />
                    <button
                      type="submit"
                      disabled={busy}
                      className="inline-flex items-center justify-center rounded-lg border border-red-200 bg-white px-3 py-1.5 text-sm font-semibold text-red-700 transition hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-60"
                      aria-label={`Révoquer la session ${s.device} ouverte le ${opened}`}
                    >
                      Révoquer
                    </button>
                  </Form>
                )}
              </div>
              {s.userAgent && s.userAgent !== s.device ? (
                <p className="mt-1 break-all text-xs text-ink-soft" title={s.userAgent}>
                  {s.userAgent.length > 120 ? `${s.userAgent.slice(0, 119)}…` : s.userAgent}
                </p>
              ) : null}
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:gap-x-6 lg:grid-cols-4">
                <div>
                  <dt className="text-ink-soft">Ouverte le</dt>
                  <dd className="tabular-nums">{opened}</dd>
                </div>
                <div>
                  <dt className="text-ink-soft">Dernière activité</dt>
                  <dd className="tabular-nums">{formatDateTime(s.lastSeenAt)}</dd>
                </div>
                <div>
                  <dt className="text-ink-soft">Expire le</dt>
                  <dd className="tabular-nums">{formatDateTime(s.expiresAt)}</dd>
                </div>
                <div>
                  <dt className="text-ink-soft">Adresse</dt>
                  <dd className="break-all font-mono text-xs leading-5">{s.address ?? "Inconnue"}</dd>
                </div>
              </dl>
            </li>
          );
        })}
      </ul>
    </>
  );
}
