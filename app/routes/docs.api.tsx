import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getOpenApiDocument } from "~/http/api-operations.server";
import { cacheControl, PUBLIC_API_DOCS } from "~/http/cache-control";
import { API_TAGS, AUTH_LABEL, type Auth } from "~/http/openapi.server"; // loader only (server)
import { pageMeta } from "~/lib/meta";

/**
 * /docs/api: the JSON API's documentation, rendered on the server from the OpenAPI document
 * (GET /api/openapi.json). Plain HTML, no script needed, no third-party resource.
 */

export const meta: MetaFunction = () =>
  pageMeta("Documentation de l'API", "L'API JSON de la boutique : chemins, authentification, corps, réponses et erreurs.");

export const headers: HeadersFunction = () => cacheControl(PUBLIC_API_DOCS);

type JsonSchema = Record<string, unknown>;

type Field = { name: string; type: string; required: boolean; notes: string[] };

type ResponseView = { status: string; description: string; fields: Field[]; isError: boolean; headers: string[] };

type OperationView = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string[];
  auth: Auth;
  authLabel: string;
  params: Field[];
  body: Field[] | null;
  responses: ResponseView[];
};

const STATUS_MEANING: [string, string][] = [
  ["200", "Succès"],
  ["201", "Créé (le corps contient le nouvel identifiant `id`)"],
  ["204", "Supprimé ou vidé, sans corps"],
  ["400", "JSON mal formé ou identifiant mal formé (abc, -1, 1.5, 1e9999...)"],
  ["401", "Session administrateur absente"],
  ["403", "Ressource d'un autre visiteur, ou requête venue d'un autre site"],
  ["404", "Identifiant inconnu"],
  ["409", "Conflit (rupture de stock, doublon, paiement déjà en cours...)"],
  ["413", "Corps trop volumineux (64 ko au plus)"],
  ["415", "Corps qui n'est pas du JSON (Content-Type: application/json attendu)"],
  ["422", "Données invalides : un message par champ dans `issues`"],
  ["429", "Trop de tentatives de connexion (en-tête Retry-After)"],
];

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return "quelconque (ignoré)";
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const variants = ((schema.anyOf ?? schema.oneOf) as JsonSchema[]).map(typeOf);
    return [...new Set(variants)].join(" ou ");
  }
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(" | ");
  const type = schema.type;
  const names: Record<string, string> = {
    string: "chaîne",
    number: "nombre",
    integer: "entier",
    boolean: "booléen",
    null: "null",
    object: "objet",
    array: "tableau",
  };
  if (Array.isArray(type)) return type.map((t) => names[String(t)] ?? String(t)).join(" ou ");
  if (type === "array") return `tableau de ${typeOf(schema.items as JsonSchema | undefined)}`;
  if (typeof type === "string") return names[type] ?? type;
  return "valeur";
}

function notesOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const notes: string[] = [];
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const parts = variants ? [schema, ...variants] : [schema];
  for (const part of parts) {
    if (typeof part.description === "string") notes.push(part.description);
    if (typeof part.format === "string") notes.push(`format ${part.format}`);
    if (typeof part.minLength === "number") notes.push(`au moins ${part.minLength} caractère(s)`);
    if (typeof part.maxLength === "number") notes.push(`au plus ${part.maxLength} caractères`);
    if (typeof part.minimum === "number") notes.push(`minimum ${part.minimum}`);
    if (typeof part.exclusiveMinimum === "number") notes.push(`supérieur à ${part.exclusiveMinimum}`);
    if (typeof part.maximum === "number" && part.maximum < 1e12) notes.push(`maximum ${part.maximum}`);
    if (typeof part.minItems === "number") notes.push(`au moins ${part.minItems} élément(s)`);
    if (typeof part.maxItems === "number") notes.push(`au plus ${part.maxItems} éléments`);
    if (typeof part.pattern === "string" && part.format === undefined) notes.push(`motif ${part.pattern}`);
    if ("default" in part) notes.push(`défaut ${JSON.stringify(part.default)}`);
  }
  return [...new Set(notes)];
}

/** The fields of an object schema (one level of nesting shown as a.b, array items as a[].b). */
function fieldsOf(schema: JsonSchema | undefined, prefix = "", depth = 0): Field[] {
  if (!schema) return [];
  if (schema.type === "array" && schema.items) {
    const items = schema.items as JsonSchema;
    if (items.type === "object") return fieldsOf(items, prefix ? `${prefix}[]` : "[]", depth);
  }
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants && variants.every((v) => v.type === "object")) {
    const seen = new Map<string, Field>();
    for (const variant of variants) {
      for (const field of fieldsOf(variant, prefix, depth)) {
        const known = seen.get(field.name);
        if (!known) seen.set(field.name, { ...field, required: false, notes: [...field.notes] });
        else if (!known.type.split(" ou ").includes(field.type)) known.type = `${known.type} ou ${field.type}`;
      }
    }
    return [...seen.values()];
  }
  if (schema.type !== "object" || !schema.properties) return [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: Field[] = [];
  for (const [name, raw] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
    const full = prefix ? `${prefix}.${name}` : name;
    out.push({ name: full, type: typeOf(raw), required: required.has(name), notes: notesOf(raw) });
    if (depth < 2) {
      const nested = raw.type === "array" ? (raw.items as JsonSchema | undefined) : raw;
      if (nested?.type === "object" || (Array.isArray(nested?.anyOf) && (nested.anyOf as JsonSchema[]).some((v) => v.type === "object"))) {
        const inner = Array.isArray(nested?.anyOf) ? (nested.anyOf as JsonSchema[]).find((v) => v.type === "object") : nested;
        out.push(...fieldsOf(inner, raw.type === "array" ? `${full}[]` : full, depth + 1));
      }
    }
  }
  return out;
}

function view() {
  const doc = getOpenApiDocument();
  const operations: (OperationView & { tag: string })[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        operationId: string;
        summary: string;
        description: string;
        tags: string[];
        "x-auth": Auth;
        parameters?: { name: string; in: string; required: boolean; description: string; schema: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: JsonSchema }> }>;
      };
      const bodySchema = op.requestBody?.content["application/json"]?.schema;
      operations.push({
        id: op.operationId,
        tag: op.tags[0],
        method: method.toUpperCase(),
        path,
        summary: op.summary,
        description: op.description.split("\n\n").slice(1),
        auth: op["x-auth"],
        authLabel: AUTH_LABEL[op["x-auth"]],
        params: (op.parameters ?? []).map((p) => ({
          name: p.in === "path" ? `{${p.name}}` : `?${p.name}`,
          type: typeOf(p.schema),
          required: p.required,
          notes: [p.description, ...notesOf(p.schema).filter((n) => !n.startsWith("motif"))],
        })),
        body: bodySchema ? fieldsOf(bodySchema) : null,
        responses: Object.entries(op.responses).map(([status, response]) => {
          const schema = response.content?.["application/json"]?.schema;
          const isError = Number(status) >= 400;
          return {
            status,
            description: response.description,
            isError,
            headers: Object.keys(response.headers ?? {}),
            fields: isError || !schema || "$ref" in schema ? [] : fieldsOf(schema),
          };
        }),
      });
    }
  }
  const groups = API_TAGS.map((tag) => ({ tag, operations: operations.filter((o) => o.tag === tag) })).filter((g) => g.operations.length > 0);
  return { title: doc.info.title, version: doc.info.version, count: operations.length, groups };
}

export async function loader(_: LoaderFunctionArgs) {
  return json(view(), { headers: cacheControl(PUBLIC_API_DOCS) });
}

const METHOD_STYLE: Record<string, string> = {
  GET: "bg-sage-100 text-sage-700",
  POST: "bg-rose-100 text-rose-700",
  PUT: "bg-sand text-ink",
  PATCH: "bg-sand text-ink",
  DELETE: "bg-ink text-ivory",
};

function anchor(text: string) {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** `code` spans in the document's texts. */
function Text({ children }: { children: string }) {
  const parts = children.split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-sand px-1 text-[0.9em]">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function FieldTable({ caption, fields }: { caption: string; fields: Field[] }) {
  return (
    <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
        <caption className="mb-1 text-left font-semibold text-ink">{caption}</caption>
        <thead>
          <tr className="border-b border-ink/15 text-ink-soft">
            <th scope="col" className="py-1 pr-3 font-medium">
              Champ
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Type
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Requis
            </th>
            <th scope="col" className="py-1 font-medium">
              Règles
            </th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={f.name} className="border-b border-ink/5 align-top">
              <td className="py-1 pr-3 font-mono text-xs">{f.name}</td>
              <td className="py-1 pr-3">{f.type}</td>
              <td className="py-1 pr-3">{f.required ? "oui" : "non"}</td>
              <td className="py-1 text-ink-soft">
                <Text>{f.notes.join(" ; ")}</Text>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Operation({ op }: { op: OperationView }) {
  return (
    <article id={op.id} className="rounded-lg border border-ink/10 bg-white p-4 md:p-5" aria-labelledby={`${op.id}-titre`}>
      <h3 id={`${op.id}-titre`} className="flex flex-wrap items-baseline gap-2 text-base">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold ${METHOD_STYLE[op.method] ?? "bg-sand"}`}>{op.method}</span>
        <code className="font-mono text-sm font-semibold">{op.path}</code>
      </h3>
      <p className="mt-2">{op.summary}</p>
      <dl className="mt-2 flex flex-wrap gap-x-2 text-sm">
        <dt className="font-semibold">Accès :</dt>
        <dd data-testid="auth">{op.authLabel}</dd>
      </dl>
      {op.description.map((d) => (
        <p key={d} className="mt-2 text-sm text-ink-soft">
          <Text>{d}</Text>
        </p>
      ))}
      {op.params.length > 0 ? <FieldTable caption="Paramètres" fields={op.params} /> : null}
      {op.body ? (
        op.body.length > 0 ? (
          <FieldTable caption="Corps JSON" fields={op.body} />
        ) : (
          <p className="mt-3 text-sm">
            <span className="font-semibold">Corps JSON :</span> objet libre
          </p>
        )
      ) : null}
      <h4 className="mt-4 text-sm font-semibold">Réponses</h4>
      <ul className="mt-1 space-y-1 text-sm">
        {op.responses.map((r) => (
          <li key={r.status}>
            <span className={`mr-2 inline-block min-w-[2.5rem] rounded px-1 text-center font-mono text-xs font-bold ${r.isError ? "bg-rose-50 text-rose-700" : "bg-sage-100 text-sage-700"}`}>
              {r.status}
            </span>
            <Text>{r.description}</Text>
            {r.headers.length > 0 ? <span className="text-ink-soft"> (en-têtes : {r.headers.join(", ")})</span> : null}
            {r.fields.length > 0 ? <FieldTable caption={`Corps de la réponse ${r.status}`} fields={r.fields} /> : null}
          </li>
        ))}
      </ul>
    </article>
  );
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
            {data.title}, version {data.version} : {data.count} opérations. Le document OpenAPI 3.1 complet, généré à partir des mêmes
            schémas de validation que les formulaires du site, est disponible sur{" "}
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
              <code className="rounded bg-sand px-1">{'{ "error": "Message en français", "issues": [{ "path": "email", "message": "…" }] }'}</code>
            </li>
            <li>Les requêtes qui modifient quelque chose depuis un navigateur doivent venir du site lui-même (sinon 403).</li>
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
                <Operation key={`${op.method} ${op.path}`} op={op} />
              ))}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
