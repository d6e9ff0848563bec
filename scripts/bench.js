// @ts-check
// npm run bench: how fast the shop answers, from its production build (run `npm run build`
// first; this script builds nothing). It starts the shop in demo mode on a free port of
// 127.0.0.1 with a throwaway data folder and TRUST_PROXY=1, with WEB_CONCURRENCY processes (2
// unless set), the demo's Stripe emulator in a node process of its own (BENCH_EMULATOR=shop: in
// the shop's primary process, as `npm start` runs it), then runs each part of the bench, one file each in
// scripts/bench/ (BENCH_PARTS, e.g. "pages", chooses some; all by default):
// - pages (part-pages.js): GET /, /product/1 and /api/products/1 with BENCH_CONNECTIONS (32)
//   connections, by an anonymous visitor and by one with a real cart, next to a bare server;
// - checkout (part-checkout.js): whole purchases, paid, by BENCH_SHOPPERS ("16,64") shoppers at
//   once, the CPU time each process spends per purchase and the requests a purchase makes, then
//   the checks of the orders, invoices, emails and stock in the database.
// Each load: BENCH_WARMUP (3) seconds of warm-up, then BENCH_DURATION (10) seconds measured;
// BENCH_RUNS (1) > 1 repeats each measure and keeps the median of each number.
// Prints Markdown tables and writes reports/bench.json. A part adds itself to PARTS below: a
// function that gets the running shop and the settings and returns its lines, its report and
// whether its checks passed.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isPostgres } from "./bench/database.js";
import { benchCheckout } from "./bench/part-checkout.js";
import { benchPages } from "./bench/part-pages.js";
import { ROOT, startShopOrExit } from "./bench/shop.js";

// npm run bench -- --pg-writes: paid orders per second on PostgreSQL with 1 and 2 servers, alone (scripts/bench/pg-writes.js).
if (process.argv.includes("--pg-writes")) {
  const { benchPostgresWrites } = await import("./bench/pg-writes.js");
  process.exit(await benchPostgresWrites());
}

/** @param {string} name @param {number} fallback */
function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}: a number is expected, not "${raw}".`);
  return value;
}

const settings = {
  seconds: envNumber("BENCH_DURATION", 10),
  warmupSeconds: envNumber("BENCH_WARMUP", 3),
  connections: envNumber("BENCH_CONNECTIONS", 32),
  shoppers: (process.env.BENCH_SHOPPERS || "16,64").split(",").map((n) => {
    const value = Number(n.trim());
    if (!Number.isInteger(value) || value < 1) throw new Error(`BENCH_SHOPPERS: whole numbers are expected, not "${n}".`);
    return value;
  }),
  runs: Math.max(1, Math.floor(envNumber("BENCH_RUNS", 1))),
  productId: 1,
  processes: process.env.WEB_CONCURRENCY || "2",
};

/**
 * The pack the shoppers buy: the product's first pack that is not the trial offer (one per
 * customer), else its first pack.
 * @param {string} origin
 * @returns {Promise<number>}
 */
async function packToBuy(origin) {
  const res = await fetch(`${origin}/api/products/${settings.productId}`);
  const product = /** @type {any} */ (await res.json());
  const packs = /** @type {{ id: number, trial?: boolean, name?: string }[]} */ (product?.packs ?? product?.product?.packs ?? []);
  const pack = packs.find((p) => !p.trial && !/essai/i.test(p.name ?? "")) ?? packs[0];
  if (!pack) throw new Error(`Product ${settings.productId} has no pack: ${JSON.stringify(product).slice(0, 300)}`);
  return pack.id;
}

/**
 * @typedef {{ shop: import("./bench/shop.js").RunningShop, packId: number, emulatorWhere: string }} PartContext
 * @typedef {{ lines: string[], report: unknown, ok: boolean }} PartResult
 */

/** @type {Record<string, (context: PartContext) => Promise<PartResult>>} */
const PARTS = {
  pages: ({ shop, packId }) => benchPages({ shop, packId, ...settings }),
  checkout: ({ shop, packId, emulatorWhere }) =>
    benchCheckout({ shop, packId, emulatorWhere, ...settings, shoppers: settings.shoppers }),
};

const chosen = (process.env.BENCH_PARTS || Object.keys(PARTS).join(",")).split(",").map((name) => name.trim());
for (const name of chosen) {
  if (!(name in PARTS)) throw new Error(`BENCH_PARTS: unknown part "${name}" (${Object.keys(PARTS).join(", ")}).`);
}

const DATABASE = isPostgres(process.env.DATABASE_URL ?? "") ? "PostgreSQL" : "SQLite";
const shop = await startShopOrExit({ env: { TRUST_PROXY: "1", WEB_CONCURRENCY: settings.processes } });
try {
  const packId = await packToBuy(shop.url);
  const emulatorWhere = shop.emulatorPid
    ? `The Stripe emulator runs in its own node process (pid ${shop.emulatorPid}, ${shop.emulatorUrl}), apart from the shop's ${settings.processes} process(es), which are pointed to it (STRIPE_EMULATOR_PORT, SHOP_STRIPE_EMULATOR_SHARED=1): its work is not counted as the shop's, though it shares the machine's cores with them.`
    : Number(settings.processes) > 1
      ? `BENCH_EMULATOR=shop: the Stripe emulator runs in the shop's primary process (pid ${shop.pid}), not in the ${settings.processes} workers that serve the shop; it shares the machine's cores with them.`
      : "BENCH_EMULATOR=shop: the Stripe emulator runs in the shop's only process (WEB_CONCURRENCY=1): its cost is counted as the shop's.";
  const cpus = os.cpus();
  console.log(
    `\n${cpus.length} × ${cpus[0]?.model ?? "CPU"}, Node ${process.version}, ${settings.processes} shop processes (WEB_CONCURRENCY), ${DATABASE}; ` +
      `${settings.warmupSeconds} s warm-up + ${settings.seconds} s per measure${settings.runs > 1 ? `, median of ${settings.runs} runs` : ""}`,
  );
  /** @type {Record<string, unknown>} */
  const reports = {};
  let ok = true;
  for (const name of chosen) {
    const result = await PARTS[name]({ shop, packId, emulatorWhere });
    console.log(`\n## ${name}\n\n${result.lines.join("\n")}`);
    reports[name] = result.report;
    ok &&= result.ok;
  }

  mkdirSync(path.join(ROOT, "reports"), { recursive: true });
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus.length, model: cpus[0]?.model ?? null, node: process.version, database: DATABASE },
    settings: { ...settings, packId },
    ...reports,
  };
  writeFileSync(path.join(ROOT, "reports/bench.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log("\nreports/bench.json written.");
  if (!ok) process.exitCode = 1;
} finally {
  await shop.stop();
}
