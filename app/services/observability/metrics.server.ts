import cluster from "node:cluster";
import { and, inArray, min } from "drizzle-orm";
import client from "prom-client";
import { getDb } from "~/db/client.server";
import { emails, stripeEvents } from "~/db/schema";
import { lastBackup } from "~/services/backups/status.server";
import { countEmailsByStatus } from "~/services/email/mailbox.server";

/**
 * The shop's metrics (Prometheus, through prom-client), served by GET /metrics
 * (server/operations.js) to whoever has METRICS_TOKEN.
 *
 * Counted by the process that does the work (and summed over the workers of a cluster by
 * prom-client's AggregatorRegistry in the primary): HTTP requests, page cache answers, orders
 * created and paid, renewals, webhooks, rate-limit refusals. Read from the database when
 * Prometheus asks (the same for every process, so the primary keeps the largest value rather
 * than a sum): the email outbox and the age of the oldest webhook still to be processed; from
 * BACKUP_DIR, the age of the last backup.
 * The event loop delay and Node's own figures come from prom-client's default metrics.
 *
 * Updating a metric is a few hundred nanoseconds: the hot path (a cached page) pays one
 * histogram observation.
 */

declare global {
  // One set of metrics per process (the dev server reloads modules).
  var __shopMetrics: ReturnType<typeof createMetrics> | undefined;
}

/** A webhook that failed is delivered again by Stripe (for three days): it is pending until then. */
const PENDING_WEBHOOK_MS = 3 * 24 * 3600_000;

/** Drops the failed webhooks since processed (by any process) or given up by Stripe. */
async function forgetProcessedWebhooks(failedWebhooks: Map<string, number>, now: number) {
  for (const [id, at] of failedWebhooks) if (now - at > PENDING_WEBHOOK_MS) failedWebhooks.delete(id);
  if (failedWebhooks.size === 0) return;
  const ids = [...failedWebhooks.keys()];
  const done = await getDb().select({ id: stripeEvents.id }).from(stripeEvents).where(inArray(stripeEvents.id, ids));
  for (const { id } of done) failedWebhooks.delete(id);
}

function createMetrics() {
  const register = client.register;
  client.collectDefaultMetrics({ register });

  const httpDuration = new client.Histogram({
    name: "shop_http_request_duration_seconds",
    help: "Durée des requêtes HTTP, par route, méthode et statut",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const pageCache = new client.Counter({
    name: "shop_page_cache_answers_total",
    help: "Réponses du cache des pages publiques : hit, stale, miss, bypass",
    labelNames: ["outcome"] as const,
  });
  const ordersCreated = new client.Counter({ name: "shop_orders_created_total", help: "Commandes créées" });
  const ordersPaid = new client.Counter({ name: "shop_orders_paid_total", help: "Commandes payées (premier paiement)" });
  const renewals = new client.Counter({
    name: "shop_renewals_total",
    help: "Renouvellements d'abonnement, payés ou échoués",
    labelNames: ["outcome"] as const,
  });
  const webhooks = new client.Counter({
    name: "shop_webhooks_received_total",
    help: "Webhooks Stripe reçus, par type et issue",
    labelNames: ["type", "outcome"] as const,
  });
  const rateLimitRefusals = new client.Counter({
    name: "shop_rate_limit_refusals_total",
    help: "Requêtes refusées par une limite de débit, par limite",
    labelNames: ["limit"] as const,
  });

  /** Webhooks that failed (id → first failure), until processed by any process or given up by Stripe. */
  const failedWebhooks = new Map<string, number>();
  new client.Gauge({
    name: "shop_webhook_oldest_unprocessed_age_seconds",
    help: "Âge du plus ancien webhook reçu mais pas encore traité (0 : aucun)",
    aggregator: "max",
    async collect() {
      const now = Date.now();
      await forgetProcessedWebhooks(failedWebhooks, now);
      const oldest = Math.min(...failedWebhooks.values());
      this.set(failedWebhooks.size === 0 ? 0 : (now - oldest) / 1000);
    },
  });

  new client.Gauge({
    name: "shop_emails",
    help: "Emails de la boîte d'envoi, par état : queued (en attente ou en cours), sent, failed",
    labelNames: ["status"] as const,
    aggregator: "max",
    async collect() {
      const by = await countEmailsByStatus();
      this.set({ status: "queued" }, by.pending + by.sending);
      this.set({ status: "sent" }, by.sent);
      this.set({ status: "failed" }, by.failed);
    },
  });
  new client.Gauge({
    name: "shop_email_oldest_queued_age_seconds",
    help: "Âge du plus ancien email en attente d'envoi (0 : aucun)",
    aggregator: "max",
    async collect() {
      const [row] = await getDb()
        .select({ oldest: min(emails.createdAt) })
        .from(emails)
        .where(and(inArray(emails.status, ["pending", "sending"])));
      const oldest = row?.oldest ? Date.parse(row.oldest) : NaN;
      this.set(Number.isNaN(oldest) ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    },
  });

  new client.Gauge({
    name: "shop_backup_last_age_seconds",
    help: "Âge de la dernière sauvegarde de la base (+Inf : aucune)",
    aggregator: "min",
    async collect() {
      const last = await lastBackup();
      this.set(last ? Math.max(0, (Date.now() - last.at.getTime()) / 1000) : Infinity);
    },
  });

  return { register, httpDuration, pageCache, ordersCreated, ordersPaid, renewals, webhooks, rateLimitRefusals, failedWebhooks };
}

const metrics = (globalThis.__shopMetrics ??= createMetrics());

/** One HTTP request answered (server/app.js). */
export function observeRequest(route: string, method: string, status: number, seconds: number) {
  metrics.httpDuration.observe({ route, method, status: String(status) }, seconds);
}

/** One answer of the page cache (server/page-cache.js). */
export function countPageCache(outcome: "HIT" | "STALE" | "MISS" | "BYPASS") {
  metrics.pageCache.inc({ outcome: outcome.toLowerCase() });
}

export function countOrderCreated() {
  metrics.ordersCreated.inc();
}

export function countOrderPaid() {
  metrics.ordersPaid.inc();
}

export function countRenewal(outcome: "paid" | "failed") {
  metrics.renewals.inc({ outcome });
}

/**
 * A webhook received: its type and what came of it (the handler's outcome, `error` when it
 * failed, `invalid_signature`). A failed event stays "unprocessed" until Stripe's retry is
 * processed (by any process) or after three days.
 */
export function countWebhook(type: string, outcome: string, eventId?: string) {
  metrics.webhooks.inc({ type, outcome });
  if (!eventId) return;
  if (outcome === "error") {
    if (!metrics.failedWebhooks.has(eventId)) metrics.failedWebhooks.set(eventId, Date.now());
  } else metrics.failedWebhooks.delete(eventId);
}

/**
 * The webhooks this process failed to process and that no process has processed since (Stripe
 * delivers them again for three days): how many, and when the oldest failed. Kept in memory:
 * another process of a cluster knows its own.
 */
export async function unprocessedWebhookFailures(now = Date.now()): Promise<{ count: number; oldestAt: Date | null }> {
  await forgetProcessedWebhooks(metrics.failedWebhooks, now);
  const count = metrics.failedWebhooks.size;
  return { count, oldestAt: count === 0 ? null : new Date(Math.min(...metrics.failedWebhooks.values())) };
}

export function countRateLimitRefusal(limit: string) {
  metrics.rateLimitRefusals.inc({ limit });
}

/** This process's metrics, in Prometheus's text format. */
export async function processMetrics(): Promise<{ contentType: string; text: string }> {
  return { contentType: metrics.register.contentType, text: await metrics.register.metrics() };
}

let aggregator: client.AggregatorRegistry<client.PrometheusContentType> | undefined;
// A worker answers the primary's requests for its metrics once prom-client's cluster support is set up.
if (cluster.isWorker) aggregator = new client.AggregatorRegistry();

/**
 * In the primary of a cluster: listens for the workers' answers (call it before the workers
 * are forked).
 */
export function startMetricsAggregation() {
  aggregator ??= new client.AggregatorRegistry();
}

/** In the primary of a cluster: the metrics of every worker, aggregated. */
export async function clusterMetrics(): Promise<{ contentType: string; text: string }> {
  startMetricsAggregation();
  return { contentType: aggregator!.contentType, text: await aggregator!.clusterMetrics() };
}
