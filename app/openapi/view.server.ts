import { getOpenApiDocument } from "./operations.server";
import { API_TAGS, AUTH_LABEL, type Auth } from "./document.server";

/**
 * The OpenAPI document turned into what /docs/api shows: JSON Schemas read as French field
 * tables (name, type, required, rules), one level of nesting shown as a.b, array items as a[].b.
 */

type JsonSchema = Record<string, unknown>;

export type Field = { name: string; type: string; required: boolean; notes: string[] };

type ResponseView = { status: string; description: string; fields: Field[]; isError: boolean; headers: string[] };

export type OperationView = {
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
      if (
        nested?.type === "object" ||
        (Array.isArray(nested?.anyOf) && (nested.anyOf as JsonSchema[]).some((v) => v.type === "object"))
      ) {
        const inner = Array.isArray(nested?.anyOf) ? (nested.anyOf as JsonSchema[]).find((v) => v.type === "object") : nested;
        out.push(...fieldsOf(inner, raw.type === "array" ? `${full}[]` : full, depth + 1));
      }
    }
  }
  return out;
}

/** The page's view of the OpenAPI document: operations grouped by tag, with their fields in French. */
export function apiDocsView() {
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
        responses: Record<
          string,
          { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: JsonSchema }> }
        >;
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
  const groups = API_TAGS.map((tag) => ({ tag, operations: operations.filter((o) => o.tag === tag) })).filter(
    (g) => g.operations.length > 0,
  );
  return { title: doc.info.title, version: doc.info.version, count: operations.length, groups };
}
