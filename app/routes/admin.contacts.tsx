import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { ContactStatusSelect } from "~/components/admin/ContactStatus";
import { DataTable, DeleteLink, type TableDefinition } from "~/components/admin/DataTable";
import { DeleteConfirmation } from "~/components/admin/DeleteConfirmation";
import { Pagination } from "~/components/admin/ListControls";
import { Dialog } from "~/components/admin/Dialog";
import { OpenContactForm } from "~/components/admin/OpenContactForm";
import { EyeIcon, iconButton } from "~/components/admin/icons";
import { Badge, buttonSecondary, PageHeader } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { queryId, queryPage, readRowAction } from "~/http/admin-pages.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { excerpt } from "~/lib/excerpt";
import { CONTACT_STATUS_LABELS } from "~/lib/statuses";
import { formatDateTime, formatLongDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { contactStatusField } from "~/schemas/contact-status";
import {
  deleteContactRequest,
  getContactRequest,
  listContactRequestsPage,
  openContactRequest,
  setContactStatus,
} from "~/services/contacts.server";

export const meta: MetaFunction = () => pageMeta("Demandes de contact", "Messages envoyés depuis la page Contact.");

const REFRESH_MS = 30_000;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, { deniedToast: true });
  // The dialog of ?id=... only shows the request: the admin's 'open' action (below) marks it read,
  // so the 30-second refresh, a reload or a shared link never does.
  const openId = queryId(request, "id");
  const opened = openId ? ((await getContactRequest(openId)) ?? null) : null;
  const deleteId = queryId(request, "delete");
  const toDelete = deleteId ? ((await getContactRequest(deleteId)) ?? null) : null;
  // The list shows the first words of each message; the whole message is in its dialog.
  const { contacts: rows, page, pageCount } = await listContactRequestsPage(queryPage(request));
  const contacts = rows.map(({ message, ...contact }) => ({
    ...contact,
    excerpt: excerpt(message, 80),
  }));
  return data({ contacts, page, pageCount, opened, toDelete }, { headers: NO_STORE_HEADERS });
}

const REPLACE = { headers: { "X-Remix-Replace": "true", ...NO_STORE_HEADERS } };

export async function action({ request }: ActionFunctionArgs) {
  const { form, id, intent } = await readRowAction(request, { deniedToast: true });
  const back = safeRedirect(form.get("redirectTo"), "/admin/contacts");
  let target = back.startsWith("/admin/contacts") ? back : "/admin/contacts";

  if (!id || (intent !== "open" && intent !== "status" && intent !== "delete")) {
    return redirectWithError(target, { message: "Erreur", description: "Une erreur est survenue: requête invalide" }, REPLACE);
  }
  if (intent === "open") {
    if (!(await openContactRequest(id)))
      return redirectWithError(
        "/admin/contacts",
        { message: "Erreur", description: "Une erreur est survenue: demande introuvable" },
        REPLACE,
      );
    return redirect(`/admin/contacts?id=${id}`, { headers: NO_STORE_HEADERS });
  }
  if (intent === "delete") {
    const deleted = await deleteContactRequest(id);
    if (!deleted)
      return redirectWithError(
        "/admin/contacts",
        { message: "Erreur", description: "Une erreur est survenue: demande introuvable" },
        REPLACE,
      );
    return redirectWithSuccess(
      "/admin/contacts",
      { message: "Contact supprimé", description: "La demande de contact a été supprimée avec succès." },
      REPLACE,
    );
  }
  const status = contactStatusField.safeParse(form.get("status"));
  if (!status.success) {
    return redirectWithError(target, { message: "Erreur", description: "Une erreur est survenue: statut invalide" }, REPLACE);
  }
  if (!(await setContactStatus(id, status.data))) {
    return redirectWithError(
      "/admin/contacts",
      { message: "Erreur", description: "Une erreur est survenue: demande introuvable" },
      REPLACE,
    );
  }
  // Put back to unread from the open dialog: close it, so the admin sees the request left unread.
  if (status.data === "non_lu") {
    const url = new URL(target, "http://x.invalid");
    if (url.searchParams.get("id") === String(id)) {
      url.searchParams.delete("id");
      target = url.pathname + url.search;
    }
  }
  return redirectWithSuccess(
    target,
    { message: "Statut mis à jour", description: "Le statut de la demande a été mis à jour avec succès." },
    REPLACE,
  );
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

type ContactRow = SerializeFrom<typeof loader>["contacts"][number];

/** The status choice of a row, coming back to this page as it is (its dialog open, if any). */
function StatusCell({ contact }: { contact: ContactRow }) {
  const location = useLocation();
  return (
    <ContactStatusSelect
      id={contact.id}
      status={contact.status}
      name={contact.name}
      redirectTo={`/admin/contacts${location.search}`}
    />
  );
}

/** Unread requests stand out in bold, with their status' badge ('Non lu', the one label of that state). */
const TABLE: TableDefinition<ContactRow> = {
  columns: [
    { header: "Date", className: "tabular-nums", cell: (c) => formatDateTime(c.createdAt) },
    {
      header: "Nom",
      cell: (c) => (
        <span className="flex flex-col items-start gap-1">
          {c.name}
          {c.status === "non_lu" ? (
            <span data-testid="unread-badge">
              <Badge tone="red">{CONTACT_STATUS_LABELS.non_lu}</Badge>
            </span>
          ) : null}
        </span>
      ),
    },
    {
      header: "Email",
      cell: (c) => (
        <a href={`mailto:${c.email}`} className="underline decoration-slate-300 hover:decoration-ink">
          {c.email}
        </a>
      ),
    },
    {
      header: "Objet",
      className: "md:max-w-[20rem]",
      cell: (c) => (
        <>
          <OpenContactForm id={c.id} className="text-left underline decoration-slate-300 hover:decoration-ink" title={c.subject}>
            {c.subject}
          </OpenContactForm>
          <p className="mt-0.5 text-xs font-normal text-ink-soft" data-testid="contact-excerpt">
            {c.excerpt}
          </p>
        </>
      ),
    },
    { header: "Statut", className: "font-normal", cell: (c) => <StatusCell contact={c} /> },
  ],
  rowProps: (c) => ({
    className: c.status === "non_lu" ? "font-semibold" : "",
    "data-testid": `contact-row-${c.id}`,
    "data-unread": c.status === "non_lu" ? "true" : "false",
  }),
  actions: (c) => (
    <>
      <OpenContactForm id={c.id} className={iconButton} label={`Lire le message de ${c.name}`} title="Lire le message">
        <EyeIcon />
      </OpenContactForm>
      <DeleteLink id={c.id} label={`Supprimer la demande de ${c.name}`} />
    </>
  ),
};

export default function AdminContacts() {
  const { contacts, page, pageCount, opened, toDelete } = useLoaderData<typeof loader>();
  const location = useLocation();
  useAutoRefresh();
  const here = `/admin/contacts${location.search}`;

  return (
    <>
      <PageHeader title="Demandes de contact" back={{ to: "/admin", label: "Retour au tableau de bord" }} />
      <DataTable {...TABLE} label="Demandes de contact" empty="Aucune demande de contact pour le moment." rows={contacts} />
      <Pagination page={page} pageCount={pageCount} />

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
                <ContactStatusSelect
                  id={opened.id}
                  status={opened.status}
                  name={opened.name}
                  redirectTo={here}
                  idPrefix="dialog-status"
                />
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
        <DeleteConfirmation id={toDelete.id} subject="cette demande de contact">
          <p className="mt-2 text-sm text-ink-soft">
            {toDelete.name} · {toDelete.subject}
          </p>
        </DeleteConfirmation>
      ) : null}
    </>
  );
}
