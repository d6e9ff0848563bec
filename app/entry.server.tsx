import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { addBusyHeaders } from "~/http/busy-answers.server";
import { PRIVATE_NO_CACHE } from "~/http/cache-control";
import { inlineStylesheet } from "~/http/stylesheet.server";
import { DocumentContextProvider } from "~/components/ui/hydration";
import type { FramedHtmlHandle } from "~/lib/framed-html";
import { applySecurityHeaders, framedStyles, type FramedStyles } from "~/security-headers.server";
import { renderEmail } from "~/services/email/render.server";
import { startEmailSender } from "~/services/email/sender.server";
import { startSubscriptionScheduler } from "~/services/subscriptions/scheduler.server";
import { openDb } from "~/db/client.server";
import { getConfig } from "~/config.server";
import { log, requestContext } from "~/log.server";

// The server entry (server/index.js) starts the shop before it listens and stops it on SIGTERM.
export { shopProcessCount, startPrimary, startShop, stopPrimary, stopShop } from "~/services/lifecycle.server";
// server/same-origin.js refuses a post from another site by the shop's own rule.
export { CROSS_SITE_MESSAGE, isSameOriginRequest } from "~/http/same-origin.server";
// server/app.js serves the build through it: a saturated database answers 503 on every route.
export { withBusyAnswers } from "~/http/busy-answers.server";
// server/page-cache.js reads the public pages' version through the build.
export { readPageCacheState } from "~/services/page-cache-version.server";
// The server's logs, request ids, metrics and health checks (server/app.js, server/index.js) share the build's.
export { log, requestContext } from "~/log.server";
export {
  clusterMetrics,
  countPageCache,
  observeRequest,
  processMetrics,
  startMetricsAggregation,
} from "~/services/observability/metrics.server";
export { readiness } from "~/services/observability/readiness.server";

/** What server/app.js needs of the configuration for the request ids and /metrics. */
export function operationsSettings() {
  const config = getConfig();
  return { trustProxy: config.trustProxy, metricsToken: config.metricsToken, shutdownDrainMs: config.shutdownDrainMs };
}
// server/database-backup.js runs npm run db:backup and db:restore through the build.
export { runDatabaseCommand } from "~/services/backups/command.server";

/** The shop's public address (PUBLIC_URL's origin): server/page-cache.js renders its pages for it. */
export function publicOrigin(): string {
  return new URL(getConfig().publicUrl).origin;
}

// `npm run dev` (remix-serve) calls no startShop: the database is opened, and the email sender
// and the subscriptions' scheduler started, when the build loads, before its first request.
if (process.env.NODE_ENV === "development") {
  await openDb();
  startEmailSender({ render: renderEmail });
  startSubscriptionScheduler();
}

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  addBusyHeaders(loadContext, responseHeaders);
  const nonce = randomBytes(16).toString("base64");
  const callback = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <DocumentContextProvider value={{ nonce, stylesheet: inlineStylesheet().css, requestId: requestContext.getStore()?.id }}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </DocumentContextProvider>,
      {
        nonce,
        [callback]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          applySecurityHeaders(responseHeaders, nonce, framedDocumentStyles(remixContext));
          // Every page carries the visitor's cart badge and toasts: never shared by caches.
          if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", PRIVATE_NO_CACHE);
          responseHeaders.append("Vary", "Cookie");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * The styles of the document a page shows in a srcdoc frame, which runs under the page's
 * policy: a route's handle `framedHtml` gives that document from its loader data.
 */
function framedDocumentStyles(remixContext: EntryContext): FramedStyles {
  const { matches, loaderData } = remixContext.staticHandlerContext;
  const styles: FramedStyles = { elements: [], attributes: [] };
  for (const match of matches) {
    const handle = remixContext.routeModules[match.route.id]?.handle as FramedHtmlHandle | undefined;
    const html = handle?.framedHtml?.(loaderData?.[match.route.id]);
    if (!html) continue;
    const found = framedStyles(html);
    styles.elements.push(...found.elements);
    styles.attributes.push(...found.attributes);
  }
  return styles;
}

/**
 * The data of a page's loaders or action (single fetch's turbo-stream, or a resource route's
 * JSON), with its length: the server then leaves short answers uncompressed (server/app.js), and
 * most of these are a few hundred bytes. No loader streams a promise: the body is whole at once.
 */
export const handleDataRequest: HandleDataRequestFunction = async (response, { context }) => {
  applySecurityHeaders(response.headers);
  addBusyHeaders(context, response.headers);
  const type = response.headers.get("Content-Type") ?? "";
  if (!response.body || response.headers.has("Content-Length") || !/^(application\/json|text\/x-script)\b/.test(type)) {
    return response;
  }
  const body = await response.text();
  response.headers.set("Content-Length", String(Buffer.byteLength(body)));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  log.error(error);
}
