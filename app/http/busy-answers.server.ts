import type { ServerBuild } from "@remix-run/node";
import { busyRefusal, isDatabaseBusy } from "~/db/busy.server";
import { shopErrorResponse } from "./api.server";
import { BUSY_RETRY_AFTER_SECONDS } from "~/lib/busy";
import { log } from "~/log.server";
import { NO_STORE } from "./cache-control";

/**
 * A saturated database (db/busy.server.ts) answered as a 503 on every route, in one place: the
 * server (server/app.js) serves the build through `withBusyAnswers`, whose loaders and actions
 * turn that error into a thrown 503 with Retry-After and the API's error body
 * (`{ error, issues, code: "busy" }`). A page then shows its error boundary with the French
 * sentence (root.tsx, AdminErrorBoundary), with JavaScript or without; a resource route answers
 * the JSON as it is. The JSON API's own handler (api.server.ts) and the page actions that read
 * their refusals (action-errors.server.ts) already answer it themselves, through toShopError.
 */

type Handler = (args: { context: unknown }) => unknown;

/** The load contexts of the requests answered so: the document's and the data's headers add Retry-After. */
const busyRequests = new WeakSet<object>();

export function busyResponse(): Response {
  return shopErrorResponse(busyRefusal());
}

function answeringBusy(handler: Handler): Handler {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      if (!isDatabaseBusy(error)) throw error;
      log.warn({ err: error }, "Base de données saturée : requête refusée (503)");
      if (args.context && typeof args.context === "object") busyRequests.add(args.context);
      throw busyResponse();
    }
  };
}

/** The build whose routes' loaders and actions answer a saturated database with a 503. */
export function withBusyAnswers(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const { loader, action } = route.module;
      const module = {
        ...route.module,
        ...(loader ? { loader: answeringBusy(loader as Handler) } : {}),
        ...(action ? { action: answeringBusy(action as Handler) } : {}),
      };
      return [id, { ...route, module }];
    }),
  ) as ServerBuild["routes"];
  return { ...build, routes };
}

/** Retry-After on the document or data answer of a request a saturated database refused. */
export function addBusyHeaders(context: unknown, headers: Headers) {
  if (context && typeof context === "object" && busyRequests.has(context)) {
    headers.set("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
    headers.set("Cache-Control", NO_STORE);
  }
}
