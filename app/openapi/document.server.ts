import { z } from "zod";
import { apiErrorSchema } from "~/schemas/api-responses";
import { ID_PATTERN } from "~/lib/ids";
import { MAX_BODY_BYTES } from "~/http/api.server";
import { CROSS_SITE_MESSAGE } from "~/http/same-origin.server";

/**
 * Builds the OpenAPI 3.1 document of the JSON API from the same zod schemas the routes
 * and the web forms use (zod 4 emits JSON Schema draft 2020-12, OpenAPI 3.1's dialect).
 */

export type Auth = "public" | "own-cart" | "order-owner" | "order-token" | "admin" | "demo" | "stripe-signature";

type ApiResponseSpec = { description: string; schema?: z.ZodType };

export const API_TAGS = [
  "Catalogue",
  "Panier",
  "Commandes",
  "Paiement",
  "Contact",
  "Administration",
  "Paramètres",
  "Documentation",
] as const;
type ApiTag = (typeof API_TAGS)[number];

type ApiPathParam = {
  name: string;
  description: string;
  /** JSON Schema of the segment; a positive integer (as parseId reads it) by default. */
  schema?: Record<string, unknown>;
};

export type ApiOperation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path, e.g. /api/orders/{id} */
  path: string;
  /** The route module that serves it, e.g. app/routes/api.orders.$id.ts */
  file: string;
  operationId: string;
  summary: string;
  /** Longer explanation (French), shown after the auth text. */
  description?: string;
  tag: ApiTag;
  auth: Auth;
  pathParams?: ApiPathParam[];
  query?: { name: string; description: string; required?: boolean; schema?: Record<string, unknown> }[];
  /** The zod schema the route parses the JSON body with (the form's schema). */
  body?: z.ZodType;
  /**
   * "json" (default): read by readJsonBody (64 kB, application/json, 400/413/415/422).
   * "stripe-signed": the raw body is verified with the Stripe-Signature header (the webhook).
   */
  bodyMode?: "json" | "stripe-signed";
  success: { status: number; headers?: Record<string, string> } & ApiResponseSpec;
  /** Extra documented errors besides those implied by auth, body and path params. */
  errors?: Record<number, string>;
};

const AUTH_TEXT: Record<Auth, string> = {
  public: "Public.",
  "own-cart": "Panier du visiteur : le cookie signé `cart` désigne le seul panier accessible.",
  "order-owner":
    "Propriétaire de la commande : le panier qui l'a créée (cookie signé `cart`, pages de la boutique), ou le jeton de la commande reçu à sa création (champ `token` du corps ou en-tête `X-Order-Token`, clients de l'API). Sans l'un ni l'autre, la réponse est celle d'une commande inconnue (404).",
  "order-token":
    "Jeton de la commande (en-tête `X-Order-Token` ou `?token=`, reçu à sa création) ou session administrateur (cookie `__admin`) ; 401 sans l'un ni l'autre, 404 si le jeton n'est pas celui de la commande.",
  admin: "Session administrateur (cookie `__admin`) requise ; 401 sinon.",
  demo: "Mode démo uniquement ; 404 en mode production.",
  "stripe-signature": "Appelé par Stripe : en-tête `Stripe-Signature` vérifié avec le secret du webhook.",
};

export const AUTH_LABEL: Record<Auth, string> = {
  public: "Public",
  "own-cart": "Panier du visiteur",
  "order-owner": "Propriétaire de la commande (panier ou jeton)",
  "order-token": "Jeton de la commande ou session administrateur",
  admin: "Session administrateur",
  demo: "Mode démo uniquement",
  "stripe-signature": "Signature Stripe",
};

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete out.$schema;
  delete out.id;
  return out;
}

const errorRef = { $ref: "#/components/schemas/ApiError" };

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  public: [],
  "own-cart": [{ cartCookie: [] }, {}],
  "order-owner": [{ cartCookie: [] }, { orderToken: [] }],
  "order-token": [{ orderToken: [] }, { adminSession: [] }],
  admin: [{ adminSession: [] }],
  demo: [],
  "stripe-signature": [{ stripeSignature: [] }],
};

function errorResponse(description: string) {
  return { description, content: { "application/json": { schema: errorRef } } };
}

/** A positive integer in a path segment, as parseId reads it (ID_PATTERN, written with [0-9] for any JSON Schema reader). */
const ID_PARAM_SCHEMA = { type: "string", pattern: ID_PATTERN.source.replace("\\d", "[0-9]") };

const ORIGIN_ERROR = CROSS_SITE_MESSAGE;
const BUSY_ERROR =
  "Site saturé : la demande n'a pas été enregistrée, réessayez dans quelques secondes (`code` busy, en-tête Retry-After)";
const BUSY_READ_ERROR = "Site saturé : réessayez dans quelques secondes (`code` busy, en-tête Retry-After)";

/** The errors an operation can answer: implied by its params, body and auth, plus its own. */
export function documentedErrors(op: ApiOperation): Record<number, string> {
  const errors: Record<number, string> = {};
  const add = (status: number, text: string) => {
    errors[status] = errors[status] && !errors[status].includes(text) ? `${errors[status]} ; ${text}` : text;
  };
  if (op.pathParams?.length) {
    add(400, "Identifiant mal formé");
    add(404, "Ressource introuvable");
  }
  if (op.body && op.bodyMode !== "stripe-signed") {
    add(400, "JSON mal formé");
    add(413, `Corps de requête trop volumineux (${MAX_BODY_BYTES / 1024} ko maximum)`);
    add(415, "Le corps doit être du JSON (Content-Type: application/json)");
    add(422, "Données invalides (détail dans `issues`)");
  }
  if (op.bodyMode === "stripe-signed") {
    add(400, "Signature Stripe absente ou invalide");
    add(413, "Corps de requête trop volumineux (512 ko maximum)");
  }
  if (op.method !== "get" && op.auth !== "stripe-signature") add(403, ORIGIN_ERROR);
  // A write that waited too long for the database's lock (db/busy.server.ts): nothing was written;
  // a read that waited too long for the connection (SQLite), or that writes too (a rate-limit counter).
  add(503, op.method === "get" ? BUSY_READ_ERROR : BUSY_ERROR);
  if (op.auth === "admin") add(401, "Session administrateur requise");
  if (op.auth === "order-token") add(401, "Jeton de commande ou session administrateur requis");
  if (op.auth === "demo") add(404, "Indisponible en mode production");
  for (const [status, text] of Object.entries(op.errors ?? {})) add(Number(status), text);
  return errors;
}

export function buildOpenApiDocument(
  operations: ApiOperation[],
  info: { version: string; serverUrl?: string; changelog?: string[] },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const responses: Record<string, unknown> = {};
    const headers = op.success.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(op.success.headers).map(([name, description]) => [name, { description, schema: { type: "string" } }]),
          ),
        }
      : {};
    responses[String(op.success.status)] =
      op.success.status === 204 || !op.success.schema
        ? { description: op.success.description, ...headers }
        : {
            description: op.success.description,
            ...headers,
            content: { "application/json": { schema: jsonSchema(op.success.schema, "output") } },
          };
    const errors = documentedErrors(op);
    for (const status of Object.keys(errors)
      .map(Number)
      .sort((a, b) => a - b)) {
      responses[String(status)] = errorResponse(errors[status]);
    }

    const parameters = [
      ...(op.pathParams ?? []).map((p) => ({
        name: p.name,
        in: "path",
        required: true,
        description: p.description,
        schema: p.schema ?? ID_PARAM_SCHEMA,
      })),
      ...(op.query ?? []).map((q) => ({
        name: q.name,
        in: "query",
        required: q.required ?? false,
        description: q.description,
        schema: q.schema ?? { type: "string" },
      })),
    ];

    const security = SECURITY[op.auth];

    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      description: [AUTH_TEXT[op.auth], op.description].filter(Boolean).join("\n\n"),
      tags: [op.tag],
      "x-auth": op.auth,
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(op.body, "input") } } } }
        : {}),
      ...(security.length ? { security } : {}),
      responses,
    };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "API de la boutique Maison Éclat",
      version: info.version,
      description:
        'API JSON de la boutique. Montants en chaînes décimales ("25.90"), dates en ISO 8601 (UTC). ' +
        "Corps en `application/json`, 64 ko au plus. " +
        'Toute erreur a la forme `{ "error": "…", "issues": [{ "path": "…", "message": "…" }] }`. ' +
        "Confidentialité : un numéro de commande seul montre l'avancement, la date, les articles, le total, le numéro de suivi, " +
        "le code postal et la ville ; le nom, la rue et l'email seulement à qui prouve posséder la commande " +
        "(le navigateur qui l'a passée, son jeton `X-Order-Token`, une session administrateur)." +
        (info.changelog?.length
          ? `\n\n## Historique des versions\n\n${info.changelog.map((line) => `- ${line}`).join("\n")}`
          : ""),
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: API_TAGS.map((name) => ({ name })),
    paths,
    components: {
      schemas: { ApiError: jsonSchema(apiErrorSchema, "output") },
      securitySchemes: {
        adminSession: {
          type: "apiKey",
          in: "cookie",
          name: "__admin",
          description: "Session administrateur (POST /api/admin/login)",
        },
        cartCookie: { type: "apiKey", in: "cookie", name: "cart", description: "Panier du visiteur, créé au premier ajout" },
        orderToken: {
          type: "apiKey",
          in: "header",
          name: "X-Order-Token",
          description:
            "Jeton d'une commande, donné une seule fois dans la réponse 201 de POST /api/orders (aussi accepté en ?token= ou dans le champ token des paiements)",
        },
        stripeSignature: { type: "apiKey", in: "header", name: "Stripe-Signature", description: "Signature des webhooks Stripe" },
      },
    },
  };
}
