// @ts-check
// The bench's "checkout" part: the whole purchase (scripts/bench/checkout.js) by N shoppers at
// once, for each N of BENCH_SHOPPERS (16 and 64), then the checks in the database: every paid
// order has exactly one invoice, the invoice numbers have no gap, one confirmation email is
// queued per order, and the stock went down once per order.
import { canMeasureCpu, shopCpuMs } from "./cpu.js";
import { openDatabase } from "./database.js";
import { runChild } from "./http.js";

/** @typedef {import("./checkout.js").CheckoutResult} CheckoutResult */
/**
 * What one measure cost, per paid purchase: CPU ms of each process, requests of each kind.
 * @typedef {{
 *   cpuMs: { workers: number, primary: number, emulator: number, loadGenerator: number },
 *   requests: { shop: number, stripeJs: number, shopToStripe: number, webhooks: number },
 *   stripeCalls: Record<string, number>,
 * }} PurchaseCost
 */

/**
 * @param {Record<string, number>} after @param {Record<string, number>} before @param {number} n
 * @returns {Record<string, number>}
 */
function perPurchase(after, before, n) {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, value]) => [key, (value - (before[key] ?? 0)) / n])
      .filter(([, value]) => Number(value) > 0),
  );
}

/** The issue's target for whole purchases: at this many shoppers at once (or fewer). */
const PAID_TARGET = { shoppers: 16, perSecond: 100, p99Ms: 500 };

/** A stock that no measure can sell out (a sold-out product would stop the purchases). */
const BENCH_STOCK = 10_000_000;

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** @param {number} ms */
const ms = (ms) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;

/**
 * @param {{
 *   shop: import("./shop.js").RunningShop,
 *   productId: number,
 *   packId: number,
 *   shoppers: number[],
 *   runs: number,
 *   warmupSeconds: number,
 *   seconds: number,
 *   emulatorWhere: string,
 * }} options
 */
export async function benchCheckout({ shop, productId, packId, shoppers, runs, warmupSeconds, seconds, emulatorWhere }) {
  const db = await openDatabase(shop.databaseUrl);
  try {
    await db.all(`UPDATE products SET stock = ${BENCH_STOCK} WHERE id = ${productId}`);
    await db.all("UPDATE page_cache_version SET version = version + 1");
    const stockBefore = Number((await db.all(`SELECT stock FROM products WHERE id = ${productId}`))[0].stock);
    const lastOrderBefore = Number((await db.all("SELECT coalesce(max(id), 0) AS n FROM orders"))[0].n);

    /** @type {{ shoppers: number, runs: CheckoutResult[], costs: PurchaseCost[] }[]} */
    const measures = [];
    let firstShopper = 0;
    for (const count of shoppers) {
      /** @type {CheckoutResult[]} */
      const results = [];
      /** @type {PurchaseCost[]} */
      const costs = [];
      for (let run = 0; run < runs; run++) {
        /** @type {{ cpu: ReturnType<typeof shopCpuMs>, counts: import("./shop.js").EmulatorCounts | null }[]} */
        const marks = [];
        // At the start and the end of the measure, once the shop has done what the purchases
        // caused after their answers (the webhooks delivered, the emails sent), so that each
        // measure counts its own.
        const mark = async () => {
          const counts = await shop.emulatorCounts();
          await outboxEmpty(db);
          marks.push({ cpu: shopCpuMs(shop), counts });
        };
        const child = await runChild(
          "checkout.js",
          {
            origin: shop.url,
            emulator: shop.emulatorUrl,
            publishableKey: "pk_test_emulator",
            shoppers: count,
            warmupSeconds,
            seconds,
            productId,
            packId,
            firstShopper,
          },
          mark,
        );
        await child.kill();
        const result = /** @type {CheckoutResult} */ (child.result);
        results.push(result);
        const [start, end] = marks;
        const n = Math.max(1, result.checkouts);
        const stripeCalls = start.counts && end.counts ? perPurchase(end.counts.api, start.counts.api, n) : {};
        const fromBrowser =
          (stripeCalls["POST /v1/payment_methods"] ?? 0) + (stripeCalls["POST /v1/payment_intents/{id}/confirm"] ?? 0);
        costs.push({
          cpuMs: {
            workers: (end.cpu.workers - start.cpu.workers) / n,
            primary: (end.cpu.primary - start.cpu.primary) / n,
            emulator: (end.cpu.emulator - start.cpu.emulator) / n,
            loadGenerator: result.cpuMs / n,
          },
          requests: {
            shop: result.requests.shop / n,
            stripeJs: result.requests.stripeJs / n,
            shopToStripe: Object.values(stripeCalls).reduce((sum, value) => sum + value, 0) - fromBrowser,
            webhooks: start.counts && end.counts ? (end.counts.webhooks - start.counts.webhooks) / n : 0,
          },
          stripeCalls,
        });
        firstShopper += result.orderIds.length + result.errors + result.warmupErrors + count;
      }
      measures.push({ shoppers: count, runs: results, costs });
    }

    const paidIds = measures.flatMap((m) => m.runs.flatMap((r) => r.orderIds));
    const checks = await checkPurchases(db, { productId, paidIds, stockBefore, lastOrderBefore });
    const rows = measures.map(({ shoppers: count, runs: results, costs }) => ({
      shoppers: count,
      paidPerSecond: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      paid: results.reduce((n, r) => n + r.checkouts, 0),
      errors: results.reduce((n, r) => n + r.errors + r.warmupErrors, 0),
      errorSamples: results.flatMap((r) => r.errorSamples).slice(0, 3),
      cpuMs: {
        workers: median(costs.map((c) => c.cpuMs.workers)),
        primary: median(costs.map((c) => c.cpuMs.primary)),
        emulator: median(costs.map((c) => c.cpuMs.emulator)),
        loadGenerator: median(costs.map((c) => c.cpuMs.loadGenerator)),
      },
      requests: costs[costs.length - 1].requests,
      stripeCalls: costs[costs.length - 1].stripeCalls,
    }));
    const emulatorApart = Boolean(shop.emulatorPid);
    const one = (/** @type {number} */ value) => value.toFixed(1);
    const costLines = canMeasureCpu
      ? [
          "",
          `CPU time per paid purchase during the measure, by process (user + system, from /proc; it moves much less than the rates with the machine's other load${emulatorApart ? "" : "; BENCH_EMULATOR=shop: the emulator's is in the primary's"}):`,
          "",
          "| shoppers at once | shop workers | shop primary | Stripe emulator | load generator | shop requests | Stripe.js requests | shop → Stripe calls | webhooks |",
          "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
          ...rows.map(
            (r) =>
              `| ${r.shoppers} | ${ms(r.cpuMs.workers)} | ${ms(r.cpuMs.primary)} | ${emulatorApart ? ms(r.cpuMs.emulator) : "(in the primary)"} | ${ms(r.cpuMs.loadGenerator)} | ${one(r.requests.shop)} | ${one(r.requests.stripeJs)} | ${emulatorApart ? one(r.requests.shopToStripe) : "?"} | ${emulatorApart ? one(r.requests.webhooks) : "?"} |`,
          ),
          ...(emulatorApart && rows.length > 0
            ? [
                "",
                `The emulator's API calls per purchase (${rows[0].shoppers} shoppers): ${Object.entries(rows[0].stripeCalls)
                  .map(([call, n]) => `${call} ${one(n)}`)
                  .join(", ")}.`,
              ]
            : []),
        ]
      : ["", "(CPU time per process not measured: this system has no /proc.)"];
    const lines = [
      `Whole purchases (cart, delivery, payment start, card confirmed at the Stripe emulator as Stripe.js does, the server's confirmation; the webhook follows). ${emulatorWhere}`,
      "",
      "| shoppers at once | paid orders/s | p50 | p99 | paid orders measured | errors |",
      "| ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows.map(
        (r) => `| ${r.shoppers} | ${r.paidPerSecond.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.paid} | ${r.errors} |`,
      ),
      ...costLines,
      "",
      ...checks.lines,
    ];
    const errors = rows.flatMap((r) => r.errorSamples);
    if (errors.length > 0) {
      lines.push(`Purchase errors (first ones):\n${errors.map((e) => `  - ${e}`).join("\n")}`);
      // What the shop logged about them (its error lines, shortened).
      const logged = shop
        .output()
        .split("\n")
        .filter((line) => /"level":50|error/i.test(line))
        .slice(0, 3);
      if (logged.length > 0)
        lines.push(`The shop's first error lines:\n${logged.map((l) => `  - ${l.slice(0, 400)}`).join("\n")}`);
    }
    const summary = [
      ...rows.map((r) => {
        const target = r.shoppers <= PAID_TARGET.shoppers;
        return {
          measure: `SQLite, ${r.shoppers} shoppers at once: whole paid purchases`,
          result: `${r.paidPerSecond.toFixed(1)} paid/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)} (${r.paid} paid, ${r.errors} errors; CPU per purchase: shop ${ms(r.cpuMs.workers + r.cpuMs.primary)}, emulator ${ms(r.cpuMs.emulator)})`,
          target: target ? `≥ ${PAID_TARGET.perSecond}/s, p99 < ${PAID_TARGET.p99Ms} ms` : "",
          met: target ? r.paidPerSecond >= PAID_TARGET.perSecond && r.p99 < PAID_TARGET.p99Ms : null,
        };
      }),
      {
        measure: "SQLite, every purchase of the measures checked in the database",
        result: checks.ok
          ? `${checks.report.answeredPaid} paid: none lost or doubled, one invoice each, numbers without a gap, one email each, stock down once each`
          : "CHECKS FAILED (see above)",
        target: "no lost, doubled or unnumbered order",
        met: checks.ok,
      },
    ];
    return { lines, report: { rows, checks: checks.report }, ok: checks.ok, summary };
  } finally {
    await db.close();
  }
}

/**
 * Waits (30 s at most) until the outbox has no email left to send.
 * @param {Awaited<ReturnType<typeof openDatabase>>} db
 */
async function outboxEmpty(db) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const [{ n }] = await db.all("SELECT count(*) AS n FROM emails WHERE status IN ('pending', 'sending')");
    if (Number(n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * @param {Awaited<ReturnType<typeof openDatabase>>} db
 * @param {{ productId: number, paidIds: number[], stockBefore: number, lastOrderBefore: number }} input
 */
async function checkPurchases(db, { productId, paidIds, stockBefore, lastOrderBefore }) {
  const ids = paidIds.length > 0 ? paidIds.join(",") : "0";
  // The webhooks of the last purchases may still be on their way: waited for, 30 s at most.
  const deadline = Date.now() + 30_000;
  let webhooks = 0;
  for (;;) {
    webhooks = Number((await db.all("SELECT count(*) AS n FROM stripe_events WHERE type = 'payment_intent.succeeded'"))[0].n);
    if (webhooks >= paidIds.length || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const created = await db.all(`SELECT id, payment_status, stock_decremented_at FROM orders WHERE id > ${lastOrderBefore}`);
  const paidInDb = created.filter((o) => o.payment_status === "paid");
  const reported = new Set(paidIds);
  const lost = paidIds.filter((id) => !paidInDb.some((o) => Number(o.id) === id)).length;
  const doubled = paidIds.length - reported.size;
  const invoicesPerOrder = await db.all(
    `SELECT order_id, count(*) AS n FROM invoices WHERE kind = 'invoice' AND order_id IN (${ids}) GROUP BY order_id`,
  );
  const withOneInvoice = invoicesPerOrder.filter((r) => Number(r.n) === 1).length;
  const withSeveral = invoicesPerOrder.filter((r) => Number(r.n) > 1).length;
  const sequences = await db.all("SELECT year, sequence FROM invoices WHERE kind = 'invoice' ORDER BY year, sequence");
  /** @type {Map<number, number[]>} */
  const byYear = new Map();
  for (const row of sequences) byYear.set(Number(row.year), [...(byYear.get(Number(row.year)) ?? []), Number(row.sequence)]);
  const gaps = [...byYear.values()].reduce((n, list) => n + list.filter((value, i) => value !== i + 1).length, 0);
  const emailsPerOrder = await db.all(
    `SELECT order_id, count(*) AS n FROM emails WHERE kind = 'order_confirmation' AND order_id IN (${ids}) GROUP BY order_id`,
  );
  const withOneEmail = emailsPerOrder.filter((r) => Number(r.n) === 1).length;
  const stockAfter = Number((await db.all(`SELECT stock FROM products WHERE id = ${productId}`))[0].stock);
  const decremented = created.filter((o) => o.stock_decremented_at !== null).length;
  const n = reported.size;
  const ok =
    lost === 0 &&
    doubled === 0 &&
    withOneInvoice === n &&
    withSeveral === 0 &&
    gaps === 0 &&
    withOneEmail === n &&
    stockBefore - stockAfter === paidInDb.length &&
    decremented === paidInDb.length;
  const lines = [
    `Checked in the database after the measures (${n} purchases answered paid, ${created.length} orders created, ${paidInDb.length} paid; ${webhooks} payment_intent.succeeded webhooks handled):`,
    `- lost (answered paid, not paid in the database): ${lost}; doubled (one number answered twice): ${doubled}`,
    `- exactly one invoice: ${withOneInvoice} of ${n}; several: ${withSeveral}; invoice numbers out of sequence (a gap or a repeat): ${gaps} of ${sequences.length}`,
    `- one confirmation email queued: ${withOneEmail} of ${n}`,
    `- stock: ${stockBefore} before, ${stockAfter} after, down by ${stockBefore - stockAfter} for ${paidInDb.length} paid orders (${decremented} marked decremented)`,
    ok ? "All checks OK." : "CHECKS FAILED.",
  ];
  return {
    ok,
    lines,
    report: {
      answeredPaid: n,
      created: created.length,
      paidInDb: paidInDb.length,
      webhooks,
      lost,
      doubled,
      withOneInvoice,
      withSeveral,
      numberingGaps: gaps,
      withOneEmail,
      stockBefore,
      stockAfter,
      decremented,
    },
  };
}
