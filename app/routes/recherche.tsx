import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { PRODUCT_ID } from "~/content/brand";
import { pageMeta } from "~/lib/meta";
import { buildSearchIndex, KIND_LABELS, search } from "~/lib/search";
import { getProduct } from "~/services/catalog.server";
import { shopPacks } from "~/services/packs.server";

const MAX_QUERY_LENGTH = 100;
const SUGGESTIONS = ["collagène", "ingrédients", "livraison", "abonnement", "peau sensible", "retour"];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const q = data?.query ?? "";
  // Result pages are for visitors, not for search engines: noindex (lib/seo.ts).
  return pageMeta(
    q ? `Recherche : ${q}` : "Recherche",
    "Recherchez dans la boutique Maison Éclat : masque au collagène, packs, questions fréquentes, livraison, retours et informations légales.",
  );
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  if (!query) return { query, results: [] };
  const product = await getProduct(PRODUCT_ID);
  const index = buildSearchIndex(
    product ? { id: product.id, name: product.name, description: product.description } : undefined,
    await shopPacks(PRODUCT_ID),
  );
  const results = search(query, index).map(({ kind, title, summary, href }) => ({ kind, title, summary, href }));
  return { query, results };
}

export default function Recherche() {
  const { query, results } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/recherche";

  return (
    <div className="container-page py-10 md:py-16">
      <div className="mx-auto max-w-3xl">
        <h1 className="font-serif text-3xl md:text-4xl">Recherche</h1>
        <p className="mt-3 text-ink-soft">Un produit, un pack, une question sur la livraison ou les ingrédients ?</p>

        <Form method="get" action="/recherche" role="search" className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="q" className="block text-sm font-semibold text-ink">
              Rechercher
            </label>
            <input
              key={query}
              id="q"
              name="q"
              type="search"
              defaultValue={query}
              maxLength={MAX_QUERY_LENGTH}
              placeholder="Ex. : collagène, livraison, abonnement"
              autoComplete="off"
              enterKeyHint="search"
              className="field-input mt-1"
            />
          </div>
          <button type="submit" className="btn-primary sm:py-2.5" disabled={searching}>
            {searching ? "Recherche..." : "Rechercher"}
          </button>
        </Form>

        {query ? (
          <section aria-labelledby="resultats" className="mt-10" aria-busy={searching}>
            <h2 id="resultats" className="font-serif text-xl" aria-live="polite">
              {results.length > 0
                ? `${results.length} résultat${results.length > 1 ? "s" : ""} pour « ${query} »`
                : `Aucun résultat pour « ${query} »`}
            </h2>
            {results.length > 0 ? (
              <ul className="mt-4 space-y-3" data-testid="search-results">
                {results.map((result) => (
                  <li key={`${result.href}|${result.title}`}>
                    <Link
                      to={result.href}
                      className="block rounded-2xl bg-white p-4 shadow-sm ring-1 ring-ink/5 transition hover:ring-rose-200 focus-visible:ring-rose-500"
                    >
                      <span className="text-xs font-semibold uppercase tracking-wider text-rose-700">
                        {KIND_LABELS[result.kind]}
                      </span>
                      <span className="mt-1 block font-semibold text-ink">{result.title}</span>
                      <span className="mt-1 line-clamp-2 block text-sm leading-relaxed text-ink-soft">{result.summary}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <div className="mt-4 rounded-2xl bg-sand p-5 text-ink-soft">
                <p>Vérifiez l'orthographe ou essayez un mot plus simple. Notre équipe peut aussi vous répondre directement.</p>
                <p className="mt-3 flex flex-wrap gap-3">
                  <Link to="/faq" className="btn-secondary">
                    Questions fréquentes
                  </Link>
                  <Link to="/contact" className="btn-secondary">
                    Nous contacter
                  </Link>
                </p>
              </div>
            )}
          </section>
        ) : null}

        <section aria-labelledby="suggestions" className="mt-10">
          <h2 id="suggestions" className="text-sm font-semibold uppercase tracking-wider text-ink">
            Recherches fréquentes
          </h2>
          <ul className="mt-3 flex flex-wrap gap-2">
            {SUGGESTIONS.map((s) => (
              <li key={s}>
                <Link
                  to={`/recherche?q=${encodeURIComponent(s)}`}
                  className="inline-block rounded-full border border-ink/15 bg-white px-4 py-2 text-sm text-ink hover:border-rose-500 hover:text-rose-700"
                >
                  {s}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
