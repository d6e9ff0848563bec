import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { redirectWithError, redirectWithSuccess } from "remix-toast";
import { ContactStatusSelect } from "~/components/admin/ContactStatus";
import { DeleteConfirmation } from "~/components/admin/DeleteConfirmation";
import { Dialog } from "~/components/admin/Dialog";
import { OpenContactForm } from "~/components/admin/OpenContactForm";
import { EyeIcon, iconButton, TrashIcon } from "~/components/admin/icons";
import { Badge, buttonSecondary, EmptyRow, PageHeader, TableWrap, td, th } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDateTime, formatLongDate } from "~/lib/dates";
import { parseIdOrNull } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { contactStatusField } from "~/schemas/contact-status";
import { deleteContactRequest, getContactRequest, listContactRequests, openContactRequest, setContactStatus } from "~/services/contacts.server";

export const meta: MetaFunction = () => pageMeta("Demandes de contact", "Messages envoyés depuis la page Contact.");

const REFRESH_MS = 30_000;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, { deniedToast: true });
  const url = new URL(request.url);
  // The dialog of ?id=... only shows the request: the admin's 'open' action (below) marks it read,
  // so the 30-second refresh, a reload or a shared link never does.
  const openId = parseIdOrNull(url.searchParams.get("id"));
  const opened = openId ? (getContactRequest(openId) ?? null) : null;
  const deleteId = parseIdOrNull(url.searchParams.get("delete"));
  const toDelete = deleteId ? (getContactRequest(deleteId) ?? null) : null;
  return json({ contacts: listContactRequests(), opened, toDelete }, { headers: NO_STORE_HEADERS });
}

const REPLACE = { headers: { "X-Remix-Replace": "true", ...NO_STORE_HEADERS } };

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  await requireAdmin(request, { deniedToast: true });
  const form = await request.formData();
  const id = parseIdOrNull(String(form.get("id") ?? ""));
  const intent = form.get("intent");
  const back = safeRedirect(form.get("redirectTo"), "/admin/contacts");
  let target = back.startsWith("/admin/contacts") ? back : "/admin/contacts";

  if (!id || (intent !== "open" && intent !== "status" && intent !== "delete")) {
    return redirectWithError(target, { message: "Erreur", description: "Une erreur est survenue: requête invalide" }, REPLACE);
  }
  if (intent === "open") {
    if (!openContactRequest(id)) return redirectWithError("/admin/contacts", { message: "Erreur", description: "Une erreur est survenue: demande introuvable" }, REPLACE);
    return redirect(`/admin/contacts?id=${id}`, { headers: NO_STORE_HEADERS });
  }
  if (intent === "delete") {
    const deleted = deleteContactRequest(id);
    if (!deleted) return redirectWithError("/admin/contacts", { message: "Erreur", description: "Une erreur est survenue: demande introuvable" }, REPLACE);
    return redirectWithSuccess("/admin/contacts", { message: "Contact supprimé", description: "La demande de contact a été supprimée avec succès." }, REPLACE);
  }
  const status = contactStatusField.safeParse(form.get("status"));
  if (!status.success) {
    return redirectWithError(target, { message: "Erreur", description: "Une erreur est survenue: statut invalide" }, REPLACE);
  }
  if (!setContactStatus(id, status.data)) {
    return redirectWithError("/admin/contacts", { message: "Erreur", description: "Une erreur est survenue: demande introuvable" }, REPLACE);
  }
  // Put back to unread from the open dialog: close it, so the admin sees the request left unread.
  if (status.data === "non_lu") {
    const url = new URL(target, "http://x.invalid");
    if (url.searchParams.get("id") === String(id)) {
      url.searchParams.delete("id");
      target = url.pathname + url.search;
    }
  }
  return redirectWithSuccess(target, { message: "Statut mis à jour", description: "Le statut de la demande a été mis à jour avec succès." }, REPLACE);
}

/** Refreshes the list every 30 s through the loaders (no page reload), when the tab is visible and nothing else is going on. */
function useAutoRefresh() {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const state = useRef({ revalidator, navigation });
  state.current = { revalidator, navigation };
  useEffect(() => {
    const timer = window.setInterval(() => {
      const { revalidator: r, navigation: n } = state.current;
      if (document.visibilityState === "visible" && r.state === "idle" && n.state === "idle") r.revalidate();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
}

export default function AdminContacts() {
  const { contacts, opened, toDelete } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  useAutoRefresh();
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  const here = `/admin/contacts${location.search}`;

  return (
    <>
      <PageHeader title="Demandes de contact" back={{ to: "/admin", label: "Retour au tableau de bord" }} />
      <TableWrap label="Demandes de contact">
        <thead>
          <tr>
            <th scope="col" className={th}>Date</th>
            <th scope="col" className={th}>Nom</th>
            <th scope="col" className={th}>Email</th>
            <th scope="col" className={th}>Objet</th>
            <th scope="col" className={th}>Statut</th>
            <th scope="col" className={th}>Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {contacts.length === 0 ? (
            <EmptyRow colSpan={6}>Aucune demande de contact pour le moment.</EmptyRow>
          ) : (
            contacts.map((c) => {
              const unread = c.status === "non_lu";
              return (
                <tr key={c.id} className={`hover:bg-slate-50 ${unread ? "font-semibold" : ""}`} data-testid={`contact-row-${c.id}`} data-unread={unread ? "true" : "false"}>
                  <td className={`${td} tabular-nums`}>{formatDateTime(c.createdAt)}</td>
                  <td className={td}>
                    <span className="flex flex-col items-start gap-1">
                      {c.name}
                      {unread ? <Badge tone="red">Nouveau</Badge> : null}
                    </span>
                  </td>
                  <td className={td}>
                    <a href={`mailto:${c.email}`} className="underline decoration-slate-300 hover:decoration-ink">
                      {c.email}
                    </a>
                  </td>
                  <td className={`${td} max-w-[13rem] truncate`}>
                    <OpenContactForm id={c.id} className="block max-w-full truncate text-left underline decoration-slate-300 hover:decoration-ink" title={c.subject}>
                      {c.subject}
                    </OpenContactForm>
                  </td>
                  <td className={`${td} font-normal`}>
                    <ContactStatusSelect id={c.id} status={c.status} name={c.name} redirectTo={here} />
                  </td>
                  <td className={`${td} font-normal`}>
                    <div className="flex gap-2">
                      <OpenContactForm id={c.id} className={iconButton} label={`Lire le message de ${c.name}`} title="Lire le message">
                        <EyeIcon />
                      </OpenContactForm>
                      <Link to={`?delete=${c.id}`} preventScrollReset className={`${iconButton} text-red-700`} aria-label={`Supprimer la demande de ${c.name}`} title="Supprimer">
                        <TrashIcon />
                      </Link>
                    </div>
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </TableWrap>

      {opened ? (
        <Dialog title={`Message de ${opened.name}`} closeTo="/admin/contacts">
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="font-medium text-ink-soft">Reçu le</dt>
              <dd>{formatLongDate(opened.createdAt)}</dd>
            </div>
            <div>
              <dt className="font-medium text-ink-soft">Email</dt>
              <dd>
                <a href={`mailto:${opened.email}`} className="underline">
                  {opened.email}
                </a>
              </dd>
            </div>
            <div>
              <dt className="font-medium text-ink-soft">Objet</dt>
              <dd>{opened.subject}</dd>
            </div>
            <div>
              <dt className="font-medium text-ink-soft">Message</dt>
              <dd className="mt-1 whitespace-pre-line rounded-lg bg-slate-50 p-3 text-ink" data-testid="contact-message">
                {opened.message}
              </dd>
            </div>
            <div>
              <dt className="mb-1 font-medium text-ink-soft">Statut</dt>
              <dd>
                <ContactStatusSelect id={opened.id} status={opened.status} name={opened.name} redirectTo={here} idPrefix="dialog-status" />
              </dd>
            </div>
          </dl>
          <div className="mt-6 flex justify-end">
            <Link to="/admin/contacts" replace preventScrollReset className={buttonSecondary} data-autofocus>
              Fermer
            </Link>
          </div>
        </Dialog>
      ) : null}

      {toDelete ? (
        <DeleteConfirmation closeTo="/admin/contacts" action="/admin/contacts" id={toDelete.id} deleting={deleting}>
          <p>Êtes-vous sûr de vouloir supprimer cette demande de contact ? Cette action est irréversible.</p>
          <p className="mt-2 text-sm text-ink-soft">
            {toDelete.name} · {toDelete.subject}
          </p>
        </DeleteConfirmation>
      ) : null}
    </>
  );
}
