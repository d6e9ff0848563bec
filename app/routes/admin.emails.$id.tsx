import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { emailKindLabel, EmailStatusBadge, ResendEmailForm } from "~/components/admin/EmailParts";
import { buttonPrimary, Card, PageHeader } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { resendEmailAction } from "~/pages/admin-emails.server";
import { recordOr404 } from "~/http/admin-pages.server";
import { pageIdOr404 } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDateTime } from "~/lib/dates";
import { purgedContentNotice } from "~/lib/email-retention";
import type { FramedHtmlHandle } from "~/lib/framed-html";
import { pageMeta } from "~/lib/meta";
import { EMAIL_NOT_FOUND } from "~/lib/not-found";
import { getEmail } from "~/services/email/mailbox.server";

/** The preview's frame shows the email's HTML: its styles are allowed by their hashes. */
export const handle: FramedHtmlHandle = {
  framedHtml: (data) => (data as { email?: { html: string | null } } | undefined)?.email?.html,
};

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data ? `Email n°${data.email.id}` : EMAIL_NOT_FOUND, "Un email de la boutique, tel qu'il a été envoyé.");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const email = await recordOr404(params.id, EMAIL_NOT_FOUND, getEmail);
  return data({ email }, { headers: NO_STORE_HEADERS });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = pageIdOr404(params.id, EMAIL_NOT_FOUND);
  return resendEmailAction(request, `/admin/emails/${id}`);
}

/** Why a part of the email is not shown: deleted by the retention, never rendered yet, or absent from the email. */
function contentMissing(email: { rendered: boolean; contentPurgedAfterDays: number | null }, absent: string) {
  if (email.contentPurgedAfterDays !== null) return purgedContentNotice(email.contentPurgedAfterDays);
  return email.rendered ? absent : NOT_RENDERED;
}

const TRANSPORT_LABELS: Record<string, string> = {
  smtp: "SMTP",
  demo: "Démo (boîte aux lettres de la boutique, rien n'est envoyé)",
};

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-ink-soft">{label}</dt>
      <dd className="min-w-0 break-words font-medium">{children ?? "-"}</dd>
    </div>
  );
}

function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString("fr-FR", { maximumFractionDigits: 1 })} ko`;
  return `${(bytes / 1024 / 1024).toLocaleString("fr-FR", { maximumFractionDigits: 1 })} Mo`;
}

const NOT_RENDERED = "Pas encore rendu : il le sera à son premier envoi.";

export default function AdminEmail() {
  const { email } = useLoaderData<typeof loader>();
  const failedOrRetrying = email.status === "failed" || (email.status === "pending" && email.lastError);

  return (
    <>
      <PageHeader
        title={email.subject ?? `Email n°${email.id}`}
        back={{ to: "/admin/emails", label: "Retour aux emails" }}
        actions={
          email.status === "failed" ? (
            <ResendEmailForm id={email.id} redirectTo={`/admin/emails/${email.id}`} className={buttonPrimary} />
          ) : null
        }
      >
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-ink-soft">
          <span>{emailKindLabel(email.kind)}</span>
          <EmailStatusBadge status={email.status} />
        </div>
      </PageHeader>

      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          <Card title="Version HTML">
            {email.html !== null ? (
              <iframe
                title={`Contenu HTML de l'email n°${email.id}`}
                sandbox=""
                srcDoc={email.html}
                referrerPolicy="no-referrer"
                className="h-[36rem] w-full rounded-lg border border-slate-200 bg-white"
                data-testid="email-html"
              />
            ) : (
              <p className="text-ink-soft" data-testid="email-html-missing">
                {contentMissing(email, "Cet email n'a pas de version HTML.")}
              </p>
            )}
          </Card>

          <Card title="Version texte">
            {email.text !== null ? (
              <pre
                className="max-h-[36rem] overflow-auto whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-4 font-mono text-sm text-ink"
                data-testid="email-text"
              >
                {email.text}
              </pre>
            ) : (
              <p className="text-ink-soft">{contentMissing(email, "Cet email n'a pas de version texte.")}</p>
            )}
          </Card>
        </div>

        <div className="min-w-0 space-y-6">
          <Card title="Informations">
            <dl className="divide-y divide-slate-100">
              <Line label="Destinataire">{email.toAddress}</Line>
              <Line label="Objet">{email.subject ?? <span className="font-normal text-ink-soft">{NOT_RENDERED}</span>}</Line>
              <Line label="Type">{emailKindLabel(email.kind)}</Line>
              <Line label="Statut">
                <EmailStatusBadge status={email.status} />
              </Line>
              <Line label="Tentatives">{email.attempts}</Line>
              {email.lastError ? (
                <Line label={email.status === "canceled" ? "Raison" : "Dernière erreur"}>
                  <span className={failedOrRetrying ? "text-red-800" : undefined}>{email.lastError}</span>
                </Line>
              ) : null}
              {email.status === "pending" ? <Line label="Prochaine tentative">{formatDateTime(email.nextAttemptAt)}</Line> : null}
              {email.orderId ? (
                <Line label="Commande">
                  <Link
                    to={`/admin/orders/${email.orderId}`}
                    className="font-mono underline decoration-slate-300 hover:decoration-ink"
                  >
                    #{email.orderId}
                  </Link>
                </Line>
              ) : null}
              <Line label="Créé le">{formatDateTime(email.createdAt)}</Line>
              <Line label="Envoyé le">{email.sentAt ? formatDateTime(email.sentAt) : null}</Line>
              <Line label="Transport">{email.transport ? (TRANSPORT_LABELS[email.transport] ?? email.transport) : null}</Line>
              <Line label="Message-ID">
                {email.messageId ? <span className="font-mono text-xs">{email.messageId}</span> : null}
              </Line>
            </dl>
          </Card>

          <Card title="Pièces jointes">
            {email.attachments.length === 0 ? (
              <p className="text-sm text-ink-soft">{email.rendered ? "Aucune pièce jointe." : NOT_RENDERED}</p>
            ) : (
              <ul className="divide-y divide-slate-100 text-sm">
                {email.attachments.map((a) => (
                  <li key={a.url} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <a
                      href={a.url}
                      download={a.filename}
                      className="break-all font-medium underline decoration-slate-300 hover:decoration-ink"
                    >
                      {a.filename}
                    </a>
                    <span className="text-xs text-ink-soft">
                      {a.contentType} · {formatSize(a.size)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return (
    <AdminErrorBoundary
      notFound="Email introuvable : vérifiez son numéro."
      backTo="/admin/emails"
      backLabel="Retour aux emails"
    />
  );
}
