import { z } from "zod";

/**
 * Builds the OpenAPI 3.1 document of the JSON API from the same zod schemas the routes
 * and the web forms use (zod 4 emits JSON Schema draft 2020-12, OpenAPI 3.1's dialect).
 */

export type Auth = "public" | "own-cart" | "admin" | "demo" | "stripe-signature";

export type ApiResponseSpec = { description: string; schema?: z.ZodType };

export type ApiOperation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path, e.g. /api/orders/{id} */
  path: string;
  /** The route module that serves it, e.g. app/routes/api.orders.$id.ts */
  file: string;
  operationId: string;
  summary: string;
  tag: "Catalogue" | "Panier" | "Commandes" | "Paiement" | "Contact" | "Administration" | "Paramètres" | "Documentation";
  auth: Auth;
  pathParams?: { name: string; description: string }[];
  query?: { name: string; description: string; required?: boolean; schema?: Record<string, unknown> }[];
  body?: z.ZodType;
  /** Request body media type when not JSON (the Stripe webhook reads raw JSON text). */
  success: { status: number } & ApiResponseSpec;
  /** Extra documented errors besides those implied by auth, body and path params. */
  errors?: Record<number, string>;
};

export const apiErrorSchema = z
  .object({
    error: z.string().describe("Message en français, lisible par une personne"),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).describe("Détail par champ (vide si sans objet)"),
  })
  .meta({ id: "ApiError" });

const AUTH_TEXT: Record<Auth, string> = {
  public: "Public.",
  "own-cart": "Panier du visiteur : le cookie signé `cart` désigne le seul panier accessible.",
  admin: "Session administrateur (cookie `__admin`) requise ; 401 sinon.",
  demo: "Mode démo uniquement ; 404 en mode production.",
  "stripe-signature": "Appelé par Stripe : en-tête `Stripe-Signature` vérifié avec le secret du webhook.",
};

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const errorRef = { $ref: "#/components/schemas/ApiError" };

function errorResponse(description: string) {
  return { description, content: { "application/json": { schema: errorRef } } };
}

export function buildOpenApiDocument(operations: ApiOperation[], info: { version: string; serverUrl?: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const responses: Record<string, unknown> = {};
    responses[String(op.success.status)] =
      op.success.status === 204 || !op.success.schema
        ? { description: op.success.description }
        : { description: op.success.description, content: { "application/json": { schema: jsonSchema(op.success.schema, "output") } } };
    const errors: Record<number, string> = {};
    if (op.pathParams?.length) {
      errors[400] = "Identifiant mal formé";
      errors[404] = "Ressource introuvable";
    }
    if (op.body) {
      errors[400] = errors[400] ? `${errors[400]} ou JSON mal formé` : "JSON mal formé";
      errors[413] = "Corps de requête trop volumineux (64 ko maximum)";
      errors[415] = "Le corps doit être du JSON (Content-Type: application/json)";
      errors[422] = "Données invalides (détail dans `issues`)";
      errors[403] = "Origine de la requête non autorisée";
    }
    if (op.auth === "admin") errors[401] = "Session administrateur requise";
    if (op.auth === "demo") errors[404] = "Indisponible en mode production";
    Object.assign(errors, op.errors ?? {});
    for (const [status, description] of Object.entries(errors)) responses[status] = errorResponse(description);

    const parameters = [
      ...(op.pathParams ?? []).map((p) => ({
        name: p.name,
        in: "path",
        required: true,
        description: p.description,
        schema: { type: "string", pattern: "^[1-9][0-9]{0,14}$" },
      })),
      ...(op.query ?? []).map((q) => ({ name: q.name, in: "query", required: q.required ?? false, description: q.description, schema: q.schema ?? { type: "string" } })),
    ];

    const security =
      op.auth === "admin" ? [{ adminSession: [] }] : op.auth === "own-cart" ? [{ cartCookie: [] }, {}] : op.auth === "stripe-signature" ? [{ stripeSignature: [] }] : [];

    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      description: AUTH_TEXT[op.auth],
      tags: [op.tag],
      "x-auth": op.auth,
      "x-route-file": op.file,
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
        "API JSON de la boutique. Montants en chaînes décimales (\"25.90\"), dates en ISO 8601 (UTC). " +
        "Toute erreur a la forme `{ \"error\": \"…\", \"issues\": [{ \"path\": \"…\", \"message\": \"…\" }] }`.",
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: ["Catalogue", "Panier", "Commandes", "Paiement", "Contact", "Administration", "Paramètres", "Documentation"].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ApiError: jsonSchema(apiErrorSchema, "output") },
      securitySchemes: {
        adminSession: { type: "apiKey", in: "cookie", name: "__admin", description: "Session administrateur (POST /api/admin/login)" },
        cartCookie: { type: "apiKey", in: "cookie", name: "cart", description: "Panier du visiteur, créé au premier ajout" },
        stripeSignature: { type: "apiKey", in: "header", name: "Stripe-Signature", description: "Signature des webhooks Stripe" },
      },
    },
  };
}
