// @ts-check
// npm run bench: how fast the shop answers, from its production build (run `npm run build`
// first; this script builds nothing). It starts the shop in demo mode on a free port of
// 127.0.0.1 with a throwaway data folder (WEB_CONCURRENCY, when set, reaches the server), then
// measures, each load driven by autocannon from its own process:
// - the write path first: complete checkouts per second by BENCH_SHOPPERS (16) shoppers at once,
//   each with its own cart (scripts/bench/checkout.js), then checks in the database that each
//   checkout created exactly one order;
// - GET /, /product/1 and /api/products/1 with BENCH_CONNECTIONS (32) connections, asking for
//   Brotli or gzip like a browser: requests/s, p50 and p99 latency, errors and non-2xx answers,
//   next to a bare node:http server in its own process returning the shop's own bytes (the
//   ceiling), and for the pages the JavaScript they ship (gzip).
// Each measure: BENCH_WARMUP (3) seconds of warm-up, then BENCH_DURATION (10) seconds measured;
// BENCH_RUNS (1) > 1 repeats everything and keeps the median of each number.
// Prints a Markdown table and writes reports/bench.json.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { BROWSER_ENCODING, getRaw, runChild, shippedJs } from "./bench/http.js";
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

const SECONDS = envNumber("BENCH_DURATION", 10);
const WARMUP_SECONDS = envNumber("BENCH_WARMUP", 3);
const CONNECTIONS = envNumber("BENCH_CONNECTIONS", 32);
const SHOPPERS = envNumber("BENCH_SHOPPERS", 16);
const RUNS = Math.max(1, Math.floor(envNumber("BENCH_RUNS", 1)));
const PRODUCT_ID = 1;
const PATHS = ["/", `/product/${PRODUCT_ID}`, `/api/products/${PRODUCT_ID}`];
const REQUEST_HEADERS = { "accept-encoding": BROWSER_ENCODING, accept: "text/html,application/json;q=0.9,*/*;q=0.8" };

/** @typedef {import("./bench/load.js").LoadResult} LoadResult */
/** @typedef {import("./bench/checkout.js").CheckoutResult} CheckoutResult */

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The database the measured shop runs on (scripts/bench/shop.js). */
const DATABASE = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? "") ? "PostgreSQL" : "SQLite";

/** @param {string} databaseUrl a SQLite file or a PostgreSQL URL */
async function countOrders(databaseUrl) {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return Number((await client.query("SELECT count(*)::int AS n FROM orders")).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const db = new Database(databaseUrl, { readonly: true, fileMustExist: true });
  try {
    return /** @type {{ n: number }} */ (db.prepare("SELECT count(*) AS n FROM orders").get()).n;
  } finally {
    db.close();
  }
}

/**
 * The pack the shoppers buy: the product's first pack that is not the trial offer (one per
 * customer), else its first pack.
 * @param {string} origin
 * @returns {Promise<number>}
 */
async function packToBuy(origin) {
  const res = await fetch(`${origin}/api/products/${PRODUCT_ID}`);
  const product = /** @type {any} */ (await res.json());
  const packs = /** @type {{ id: number, trial?: boolean, name?: string }[]} */ (product?.packs ?? product?.product?.packs ?? []);
  const pack = packs.find((p) => !p.trial && !/essai/i.test(p.name ?? "")) ?? packs[0];
  if (!pack) throw new Error(`Product ${PRODUCT_ID} has no pack: ${JSON.stringify(product).slice(0, 300)}`);
  return pack.id;
}

/** @param {number} ms */
const ms = (ms) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;

const shop = await startShopOrExit({ env: { TRUST_PROXY: "1" } });
/** @type {{ kill(): Promise<void> } | null} */
let bare = null;
try {
  // What the shop sends for each path, compressed as a browser asks: the bare server's bytes.
  /** @type {Record<string, { status: number, headers: Record<string, string>, body: string }>} */
  const responses = {};
  /** @type {Record<string, { bytes: number, encoding: string, js: { files: number, gzipBytes: number } | null }>} */
  const pages = {};
  for (const p of PATHS) {
    const res = await getRaw(shop.url + p, REQUEST_HEADERS);
    if (res.status !== 200) throw new Error(`GET ${p}: HTTP ${res.status}`);
    /** @type {Record<string, string>} */
    const headers = {};
    for (const name of ["content-type", "content-encoding", "vary", "cache-control"]) {
      const value = res.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    responses[p] = { status: res.status, headers, body: res.body.toString("base64") };
    const html = (headers["content-type"] ?? "").startsWith("text/html");
    const plain = html ? await getRaw(shop.url + p, { "accept-encoding": "identity" }) : null;
    pages[p] = {
      bytes: res.body.length,
      encoding: headers["content-encoding"] ?? "identity",
      js: plain ? await shippedJs(shop.url, plain.body.toString()) : null,
    };
  }
  const started = await runChild("bare-server.js", { responses });
  bare = started;
  const barePort = /** @type {{ port: number }} */ (started.result).port;
  const packId = await packToBuy(shop.url);

  const ordersBefore = await countOrders(shop.databaseUrl);
  /** @type {CheckoutResult[]} */
  const checkoutRuns = [];
  /** @type {Record<string, { shop: LoadResult[], bare: LoadResult[] }>} */
  const loads = Object.fromEntries(PATHS.map((p) => [p, { shop: [], bare: [] }]));

  for (let run = 0; run < RUNS; run++) {
    const checkout = await runChild("checkout.js", {
      origin: shop.url,
      shoppers: SHOPPERS,
      warmupSeconds: WARMUP_SECONDS,
      seconds: SECONDS,
      productId: PRODUCT_ID,
      packId,
    });
    await checkout.kill();
    checkoutRuns.push(/** @type {CheckoutResult} */ (checkout.result));
    for (const p of PATHS) {
      for (const [target, origin] of /** @type {const} */ ([
        ["shop", shop.url],
        ["bare", `http://127.0.0.1:${barePort}`],
      ])) {
        const load = await runChild("load.js", {
          url: origin + p,
          connections: CONNECTIONS,
          warmupSeconds: WARMUP_SECONDS,
          seconds: SECONDS,
          headers: REQUEST_HEADERS,
        });
        await load.kill();
        loads[p][target].push(/** @type {LoadResult} */ (load.result));
      }
    }
  }

  // Every successful checkout made exactly one order: none lost, none doubled.
  const ordersCreated = (await countOrders(shop.databaseUrl)) - ordersBefore;
  const orderIds = checkoutRuns.flatMap((r) => r.orderIds);
  const distinctOrders = new Set(orderIds).size;
  const ordersOk = ordersCreated === orderIds.length && distinctOrders === orderIds.length;

  const write = {
    measure: `checkout (${SHOPPERS} shoppers)`,
    checkoutsPerSecond: median(checkoutRuns.map((r) => r.rps)),
    p50: median(checkoutRuns.map((r) => r.p50)),
    p99: median(checkoutRuns.map((r) => r.p99)),
    checkouts: checkoutRuns.reduce((n, r) => n + r.checkouts, 0),
    errors: checkoutRuns.reduce((n, r) => n + r.errors, 0),
    warmupErrors: checkoutRuns.reduce((n, r) => n + r.warmupErrors, 0),
    errorSamples: checkoutRuns.flatMap((r) => r.errorSamples).slice(0, 5),
  };
  const reads = PATHS.map((p) => {
    const s = loads[p].shop;
    const b = loads[p].bare;
    const rps = median(s.map((r) => r.rps));
    const bareRps = median(b.map((r) => r.rps));
    return {
      measure: `GET ${p}`,
      rps,
      p50: median(s.map((r) => r.p50)),
      p99: median(s.map((r) => r.p99)),
      bareRps,
      bareP50: median(b.map((r) => r.p50)),
      bareP99: median(b.map((r) => r.p99)),
      ratio: bareRps > 0 ? rps / bareRps : 0,
      errors: s.reduce((n, r) => n + r.errors, 0),
      non2xx: s.reduce((n, r) => n + r.non2xx, 0),
      bareErrors: b.reduce((n, r) => n + r.errors + r.non2xx, 0),
      requests: s.reduce((n, r) => n + r.requests, 0),
      ...pages[p],
    };
  });

  const lines = [
    "| measure | req/s | p50 | p99 | bare req/s | ratio | JS gzip | errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| ${write.measure} | ${write.checkoutsPerSecond.toFixed(1)} checkouts/s | ${ms(write.p50)} | ${ms(write.p99)} | - | - | - | ${write.errors} |`,
    ...reads.map(
      (r) =>
        `| ${r.measure} | ${Math.round(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${Math.round(r.bareRps)} | ${r.ratio.toFixed(2)} | ${r.js ? `${(r.js.gzipBytes / 1024).toFixed(1)} kB (${r.js.files} files)` : "-"} | ${r.requests === 0 ? "no answer within the measure" : `${r.errors} + ${r.non2xx} non-2xx`} |`,
    ),
  ];
  const check = `Orders created in the database: ${ordersCreated}, checkouts that returned an order: ${orderIds.length} (${distinctOrders} distinct numbers): ${ordersOk ? "OK, none lost or doubled" : "MISMATCH"}`;
  const cpus = os.cpus();
  console.log(
    `\n${cpus.length} × ${cpus[0]?.model ?? "CPU"}, Node ${process.version}, WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY || "(unset)"}, ${DATABASE}; ` +
      `${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per measure${RUNS > 1 ? `, median of ${RUNS} runs` : ""}; ` +
      `bodies as sent with Accept-Encoding: ${BROWSER_ENCODING} (${reads.map((r) => `${r.measure.slice(4)} ${r.encoding} ${r.bytes} B`).join(", ")})\n`,
  );
  console.log(lines.join("\n"));
  console.log(`\n${check}`);
  if (write.errors + write.warmupErrors > 0)
    console.log(`Checkout errors (first ones):\n${write.errorSamples.map((e) => `  - ${e}`).join("\n")}`);

  mkdirSync(path.join(ROOT, "reports"), { recursive: true });
  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus.length,
      model: cpus[0]?.model ?? null,
      node: process.version,
      webConcurrency: process.env.WEB_CONCURRENCY || null,
      database: DATABASE,
    },
    settings: {
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
      shoppers: SHOPPERS,
      runs: RUNS,
      acceptEncoding: BROWSER_ENCODING,
    },
    checkout: {
      ...write,
      packId,
      orders: { created: ordersCreated, returned: orderIds.length, distinct: distinctOrders, ok: ordersOk },
    },
    reads,
  };
  writeFileSync(path.join(ROOT, "reports/bench.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log("\nreports/bench.json written.");
  if (!ordersOk) process.exitCode = 1;
} finally {
  await bare?.kill();
  await shop.stop();
}
