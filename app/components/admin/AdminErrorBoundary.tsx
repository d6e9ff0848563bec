import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { BUSY_HEADING, BUSY_MESSAGE, isBusyAnswer } from "~/lib/busy";
import { NOT_FOUND_HEADING } from "~/lib/not-found";

/** Error shown inside the admin frame: a 404 and a busy site (503) read as such, anything else stays generic. */
export function AdminErrorBoundary({
  notFound = "Cette page n'existe pas.",
  backTo = "/admin/dashboard",
  backLabel = "Retour au tableau de bord",
}: {
  notFound?: string;
  backTo?: string;
  backLabel?: string;
}) {
  const error = useRouteError();
  const is404 = isRouteErrorResponse(error) && error.status === 404;
  const busy = isBusyAnswer(error);
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <h1 className="text-2xl font-semibold">{is404 ? NOT_FOUND_HEADING : busy ? BUSY_HEADING : "Une erreur est survenue"}</h1>
      <p className="mt-3 text-ink-soft">{is404 ? notFound : busy ? BUSY_MESSAGE : "Veuillez réessayer dans un instant."}</p>
      <Link to={backTo} className="mt-6 inline-flex rounded-lg bg-ink px-4 py-2 text-sm font-semibold text-white">
        {backLabel}
      </Link>
    </div>
  );
}
