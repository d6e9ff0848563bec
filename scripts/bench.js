// @ts-check
// npm run bench: how fast the shop answers, from its production build (run `npm run build`
// first; this script builds nothing), then everything in one table at the end. Its parts, one file
// each in scripts/bench/ (BENCH_PARTS, e.g. "pages,checkout", chooses some; all by default):
// - pages (part-pages.js): GET /, /product/1 and /api/products/1 with BENCH_CONNECTIONS (32)
//   connections, by an anonymous visitor and by one with a real cart, next to a bare server;
// - checkout (part-checkout.js): whole purchases, paid, on SQLite, by BENCH_SHOPPERS ("16,64")
//   shoppers at once, the CPU time each process spends per purchase and the requests a purchase
//   makes, then the checks of the orders, invoices, emails and stock in the database;
// - pg (pg-writes.js): paid orders per second on PostgreSQL with 1 then 2 servers
//   (BENCH_PG_SERVERS, "1,2") sharing a throwaway database, BENCH_PG_SHOPPERS (16) shoppers at
//   once, with the same checks (skipped, and said, when PostgreSQL is not installed);
// - data (part-data.js): the back office and the API lists at BENCH_DATA_SIZES ("1000,100000")
//   orders, seeded by `npm run seed:scale` (BENCH_DATA_DIR keeps the seeded files for the next
//   run), and the CSV export's memory.
// pages and checkout run on one shop started in demo mode on a free port of 127.0.0.1 with a
// throwaway data folder and TRUST_PROXY=1, with WEB_CONCURRENCY processes (2 unless set), the
// demo's Stripe emulator in a node process of its own (BENCH_EMULATOR=shop: in the shop's primary
// process, as `npm start` runs it); pg and data start their own servers once it has stopped.
// Each load: BENCH_WARMUP (3) seconds of warm-up, then BENCH_DURATION (10) seconds measured;
// BENCH_RUNS (1) > 1 repeats each measure and keeps the median of each number.
// Prints Markdown tables and writes reports/bench.json.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isPostgres } from "./bench/database.js";
import { benchCheckout } from "./bench/part-checkout.js";
import { benchData } from "./bench/part-data.js";
import { benchPages } from "./bench/part-pages.js";
import { benchPostgresWrites } from "./bench/pg-writes.js";
import { ROOT, startShopOrExit } from "./bench/shop.js";

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
 * @typedef {import("./bench/part-data.js").SummaryRow} SummaryRow
 * @typedef {{ shop: import("./bench/shop.js").RunningShop, packId: number, emulatorWhere: string }} ShopContext
 * @typedef {{ lines: string[], report: unknown, ok: boolean, summary: SummaryRow[] }} PartResult
 */

/** The parts that measure the shop started here, in this order. @type {Record<string, (context: ShopContext) => Promise<PartResult>>} */
const SHOP_PARTS = {
  pages: ({ shop, packId }) => benchPages({ shop, packId, ...settings }),
  checkout: ({ shop, packId, emulatorWhere }) =>
    benchCheckout({ shop, packId, emulatorWhere, ...settings, shoppers: settings.shoppers }),
};
/** The parts that start their own servers, after. @type {Record<string, () => Promise<PartResult | undefined>>} */
const OWN_PARTS = {
  pg: () => benchPostgresWrites({ runs: settings.runs, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds }),
  data: () =>
    benchData({
      sizes: (process.env.BENCH_DATA_SIZES || "1000,100000").split(",").map(Number),
      keepDir: process.env.BENCH_DATA_DIR,
    }),
};

// npm run bench -- --pg-writes: the PostgreSQL part alone (as BENCH_PARTS=pg).
const partNames = process.argv.includes("--pg-writes")
  ? ["pg"]
  : (process.env.BENCH_PARTS || [...Object.keys(SHOP_PARTS), ...Object.keys(OWN_PARTS)].join(","))
      .split(",")
      .map((name) => name.trim());
for (const name of partNames) {
  if (!(name in SHOP_PARTS) && !(name in OWN_PARTS))
    throw new Error(
      `BENCH_PARTS: unknown part "${name}" (${[...Object.keys(SHOP_PARTS), ...Object.keys(OWN_PARTS)].join(", ")}).`,
    );
}

const DATABASE = isPostgres(process.env.DATABASE_URL ?? "") ? "PostgreSQL" : "SQLite";
const cpus = os.cpus();
console.log(
  `\n${cpus.length} × ${cpus[0]?.model ?? "CPU"}, Node ${process.version}, ${settings.processes} shop processes (WEB_CONCURRENCY), ${DATABASE}; ` +
    `${settings.warmupSeconds} s warm-up + ${settings.seconds} s per measure${settings.runs > 1 ? `, median of ${settings.runs} runs` : ""}`,
);
/** @type {Record<string, unknown>} */
const reports = {};
/** @type {{ part: string, rows: SummaryRow[] }[]} */
const summaries = [];
let ok = true;
/** @param {string} name @param {PartResult | undefined} result */
function report(name, result) {
  if (!result) {
    ok = false;
    summaries.push({ part: name, rows: [{ measure: "not measured (see above)", result: "", target: "", met: false }] });
    return;
  }
  console.log(`\n## ${name}\n\n${result.lines.join("\n")}`);
  reports[name] = result.report;
  summaries.push({ part: name, rows: result.summary });
  ok &&= result.ok;
}

const shopParts = partNames.filter((name) => name in SHOP_PARTS);
let packId = 0;
if (shopParts.length > 0) {
  const shop = await startShopOrExit({ env: { TRUST_PROXY: "1", WEB_CONCURRENCY: settings.processes } });
  try {
    packId = await packToBuy(shop.url);
    const emulatorWhere = shop.emulatorPid
      ? `The Stripe emulator runs in its own node process (pid ${shop.emulatorPid}, ${shop.emulatorUrl}), apart from the shop's ${settings.processes} process(es), which are pointed to it (STRIPE_EMULATOR_PORT, SHOP_STRIPE_EMULATOR_SHARED=1): its work is not counted as the shop's, though it shares the machine's cores with them.`
      : Number(settings.processes) > 1
        ? `BENCH_EMULATOR=shop: the Stripe emulator runs in the shop's primary process (pid ${shop.pid}), not in the ${settings.processes} workers that serve the shop; it shares the machine's cores with them.`
        : "BENCH_EMULATOR=shop: the Stripe emulator runs in the shop's only process (WEB_CONCURRENCY=1): its cost is counted as the shop's.";
    for (const name of shopParts) report(name, await SHOP_PARTS[name]({ shop, packId, emulatorWhere }));
  } finally {
    await shop.stop();
  }
}
for (const name of partNames.filter((part) => part in OWN_PARTS)) report(name, await OWN_PARTS[name]());

const PART_TITLES = /** @type {Record<string, string>} */ ({
  pages: "pages (SQLite, 2 workers)",
  checkout: "paid orders (SQLite, 2 workers)",
  pg: "paid orders (PostgreSQL)",
  data: "two years of data (SQLite, 1 process)",
});
console.log(
  `\n## All in one table\n\n| part | measure | result | target | met |\n|---|---|---|---|---|\n${summaries
    .flatMap(({ part, rows }) =>
      rows.map(
        (row) =>
          `| ${PART_TITLES[part] ?? part} | ${row.measure} | ${row.result} | ${row.target} | ${row.met === null ? "" : row.met ? "yes" : "**no**"} |`,
      ),
    )
    .join("\n")}`,
);

mkdirSync(path.join(ROOT, "reports"), { recursive: true });
writeFileSync(
  path.join(ROOT, "reports/bench.json"),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { cpus: cpus.length, model: cpus[0]?.model ?? null, node: process.version, database: DATABASE },
      settings: { ...settings, packId },
      ...reports,
      summary: summaries,
    },
    null,
    2,
  )}\n`,
);
console.log("\nreports/bench.json written.");
if (!ok) process.exitCode = 1;
