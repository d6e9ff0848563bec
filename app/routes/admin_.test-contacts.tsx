import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRevalidator, useRouteError } from "@remix-run/react";
import { getConfig } from "~/config.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { listContactRequests } from "~/services/contacts.server";
import { NOT_FOUND_HEADING } from "~/lib/not-found";

/**
 * Debug page of the original shop: lists the stored contact requests with their raw JSON.
 * Demo mode only: in live mode it does not exist (404), since it shows customers' messages.
 */
export const meta: MetaFunction = () => pageMeta("Test des contacts", "Page de diagnostic (mode démo).");

export const headers: HeadersFunction = () => NO_STORE_HEADERS;

export async function loader(_: LoaderFunctionArgs) {
  if (getConfig().mode !== "demo") throw new Response("Not Found", { status: 404 });
  return data({ contacts: await listContactRequests() }, { headers: NO_STORE_HEADERS });
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-100 px-4 py-8">
      <div className="mx-auto max-w-5xl">
        <h1 className="text-2xl font-semibold">Test des contacts</h1>
        <p className="mt-1 text-sm text-ink-soft">
          Page de diagnostic du mode démonstration : contenu de GET /api/public/contacts.
        </p>
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

export default function TestContacts() {
  const { contacts } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  return (
    <Frame>
      <div className="mb-4 flex items-center gap-3">
        <Link
          to="."
          reloadDocument={false}
          onClick={(e) => {
            e.preventDefault();
            revalidator.revalidate();
          }}
          className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium"
        >
          Recharger
        </Link>
        {revalidator.state === "loading" ? (
          <p role="status" className="text-sm text-ink-soft">
            Chargement des contacts...
          </p>
        ) : null}
      </div>
      {contacts.length === 0 ? (
        <p className="rounded-xl bg-white p-6 text-center text-ink-soft shadow-sm">
          Aucun contact trouvé dans la base de données.
        </p>
      ) : (
        <ul className="space-y-4">
          {contacts.map((c) => (
            <li key={c.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                <div>
                  <dt className="inline font-semibold">ID : </dt>
                  <dd className="inline">{c.id}</dd>
                </div>
                <div>
                  <dt className="inline font-semibold">Date : </dt>
                  <dd className="inline">{formatDateTime(c.createdAt)}</dd>
                </div>
                <div>
                  <dt className="inline font-semibold">Nom : </dt>
                  <dd className="inline">{c.name}</dd>
                </div>
                <div>
                  <dt className="inline font-semibold">Email : </dt>
                  <dd className="inline">{c.email}</dd>
                </div>
                <div>
                  <dt className="inline font-semibold">Objet : </dt>
                  <dd className="inline">{c.subject}</dd>
                </div>
                <div>
                  <dt className="inline font-semibold">Statut : </dt>
                  <dd className="inline">{c.status}</dd>
                </div>
              </dl>
              <pre
                tabIndex={0}
                aria-label={`JSON brut du contact ${c.id}`}
                className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100"
              >
                {JSON.stringify(c, null, 2)}
              </pre>
            </li>
          ))}
        </ul>
      )}
    </Frame>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    // Live mode: the page does not exist.
    return (
      <div className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
        <h1 className="font-serif text-3xl">{NOT_FOUND_HEADING}</h1>
        <p className="mt-4 text-ink-soft">La page que vous cherchez n'existe pas ou a été déplacée.</p>
        <Link to="/" className="btn-primary mt-8">
          Retour à l'accueil
        </Link>
      </div>
    );
  }
  return (
    <Frame>
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        Impossible de charger les contacts
      </p>
    </Frame>
  );
}
