import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ApiOperation, Text } from "~/components/docs/ApiOperation";
import { cacheControl, PUBLIC_API_DOCS } from "~/http/cache-control";
import { apiDocsView } from "~/openapi/view.server"; // loader only (server)
import { pageMeta } from "~/lib/meta";

/**
 * /docs/api: the JSON API's documentation, rendered on the server from the OpenAPI document
 * (GET /api/openapi.json). Plain HTML, no script needed, no third-party resource.
 */

export const meta: MetaFunction = () =>
  pageMeta("Documentation de l'API", "L'API JSON de la boutique : chemins, authentification, corps, réponses et erreurs.");

export const headers: HeadersFunction = () => cacheControl(PUBLIC_API_DOCS);

const STATUS_MEANING: [string, string][] = [
  ["200", "Succès"],
  ["201", "Créé (le corps contient le nouvel identifiant `id`)"],
  ["204", "Supprimé ou vidé, sans corps"],
  ["400", "JSON mal formé ou identifiant mal formé (abc, -1, 1.5, 1e9999...)"],
  ["401", "Session administrateur (ou jeton de commande) absente"],
  ["403", "Ressource d'un autre visiteur, ou requête venue d'un autre site"],
  ["404", "Identifiant inconnu"],
  ["409", "Conflit (rupture de stock, doublon, paiement déjà en cours...)"],
  ["413", "Corps trop volumineux (64 ko au plus)"],
  ["415", "Corps qui n'est pas du JSON (Content-Type: application/json attendu)"],
  ["422", "Données invalides : un message par champ dans `issues` (pour un prix ou un total refusé, le montant attendu)"],
  ["429", "Trop de tentatives de connexion (en-tête Retry-After)"],
];

export async function loader(_: LoaderFunctionArgs) {
  return data(apiDocsView(), { headers: cacheControl(PUBLIC_API_DOCS) });
}

/** The id of a tag's section: "Paramètres" -> "parametres". */
function anchor(text: string) {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export default function ApiDocs() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="container-page py-10 md:py-16">
      <div className="mx-auto max-w-4xl">
        <header className="border-b border-ink/10 pb-6">
          <p className="text-xs font-semibold uppercase tracking-widest text-rose-700">Développeurs</p>
          <h1 className="mt-2 font-serif text-3xl leading-tight md:text-4xl">Documentation de l'API JSON</h1>
          <p className="mt-4 text-lg leading-relaxed text-ink-soft">
            {data.title}, version {data.version} : {data.count} opérations. Le document OpenAPI 3.1 complet, généré à partir des
            mêmes schémas de validation que les formulaires du site, est disponible sur{" "}
            <a className="font-medium text-rose-700 underline" href="/api/openapi.json">
              /api/openapi.json
            </a>
            .
          </p>
        </header>

        <section aria-labelledby="conventions" className="mt-8 space-y-3">
          <h2 id="conventions" className="font-serif text-2xl">
            Conventions
          </h2>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              Corps en JSON (<code className="rounded bg-sand px-1">Content-Type: application/json</code>), 64 ko au plus.
            </li>
            <li>
              Montants en chaînes décimales (<code className="rounded bg-sand px-1">"25.90"</code>), dates en ISO 8601 UTC.
            </li>
            <li>
              Toute erreur a la même forme :{" "}
              <code className="rounded bg-sand px-1">
                {'{ "error": "Message en français", "issues": [{ "path": "email", "message": "…" }] }'}
              </code>
            </li>
            <li>Les requêtes qui modifient quelque chose depuis un navigateur doivent venir du site lui-même (sinon 403).</li>
            <li>
              <Text>
                {
                  "Commandes : `POST /api/orders` répond avec le jeton `token` de la commande, donné une seule fois. Il prouve la propriété de la commande : en-tête `X-Order-Token` (ou `?token=`) pour `GET` et `PUT /api/orders/{id}`, champ `token` (ou le même en-tête) pour démarrer le paiement. Le serveur n'en garde que l'empreinte."
                }
              </Text>
            </li>
            <li>
              <Text>
                {
                  "Montants : le serveur calcule chaque montant d'après les packs. Un `price` ou un `total` envoyé qui n'est pas le sien est refusé (422, montant attendu dans `issues`), jamais corrigé en silence ; un `status` envoyé (`paid`, `confirmed`) n'est jamais suivi."
                }
              </Text>
            </li>
            <li>
              <Text>
                {
                  "Confidentialité : un numéro de commande seul montre l'avancement, la date, les articles, le total, le numéro de suivi, le code postal et la ville. Le nom, la rue et l'email seulement à qui prouve posséder la commande : le navigateur qui l'a passée, son jeton, une session administrateur (et, sur la page de suivi, l'email de la commande)."
                }
              </Text>
            </li>
          </ul>
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Codes de statut">
            <table className="mt-2 w-full border-collapse text-left text-sm">
              <caption className="mb-1 text-left font-semibold">Codes de statut</caption>
              <thead>
                <tr className="border-b border-ink/15 text-ink-soft">
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Code
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Signification
                  </th>
                </tr>
              </thead>
              <tbody>
                {STATUS_MEANING.map(([code, text]) => (
                  <tr key={code} className="border-b border-ink/5">
                    <td className="py-1 pr-3 font-mono">{code}</td>
                    <td className="py-1">
                      <Text>{text}</Text>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>

        <nav aria-labelledby="sommaire" className="mt-8">
          <h2 id="sommaire" className="font-serif text-2xl">
            Sommaire
          </h2>
          <ul className="mt-2 grid gap-1 sm:grid-cols-2">
            {data.groups.map((g) => (
              <li key={g.tag}>
                <a className="text-rose-700 underline" href={`#${anchor(g.tag)}`}>
                  {g.tag}
                </a>{" "}
                <span className="text-ink-soft">({g.operations.length})</span>
              </li>
            ))}
          </ul>
        </nav>

        {data.groups.map((g) => (
          <section key={g.tag} id={anchor(g.tag)} aria-labelledby={`${anchor(g.tag)}-titre`} className="mt-10">
            <h2 id={`${anchor(g.tag)}-titre`} className="font-serif text-2xl">
              {g.tag}
            </h2>
            <div className="mt-4 space-y-4">
              {g.operations.map((op) => (
                <ApiOperation key={`${op.method} ${op.path}`} op={op} />
              ))}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
