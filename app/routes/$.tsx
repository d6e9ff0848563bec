import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import type { SeoHandle } from "~/lib/seo";
import { NOT_FOUND_HEADING } from "~/lib/not-found";

/** No page here: no canonical link, noindex. */
export const handle: SeoHandle = { seo: { indexable: () => false } };

export const meta: MetaFunction = () => pageMeta("Page introuvable", "Cette page n'existe pas.");

export async function loader() {
  // A real 404 status for any unknown path; the page below is what the visitor sees.
  return new Response(null, { status: 404 });
}

export default function NotFound() {
  return (
    <div className="container-page flex flex-col items-center py-24 text-center">
      <h1 className="font-serif text-4xl">{NOT_FOUND_HEADING}</h1>
      <p className="mt-4 max-w-md text-ink-soft">La page que vous cherchez n'existe pas ou a été déplacée.</p>
      <Link to="/" className="btn-primary mt-8">
        Retour à l'accueil
      </Link>
    </div>
  );
}
