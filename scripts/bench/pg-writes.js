// @ts-check
// The bench's "pg" part: paid orders per second on PostgreSQL, with 1 then 2 shop servers sharing
// one database; part of `npm run bench`, or alone with `npm run bench -- --pg-writes` (or
// `node scripts/bench/pg-writes.js`), from the production build (`npm run build` first;
// BENCH_BUILD names another build folder).
// For each number of servers (BENCH_PG_SERVERS, "1,2"): a throwaway PostgreSQL server
// (scripts/postgres/throwaway.js: fsync off, as a test server), the Stripe emulator in its own
// process (its cost is not the shop's), the shop servers (one process each, demo mode,
// TRUST_PROXY=1), then BENCH_PG_SHOPPERS (16) shoppers buying at once for BENCH_WARMUP (2) then
// BENCH_DURATION (10) seconds (scripts/bench/pg-writes-load.js). Once Stripe's webhooks are all
// answered, the database is checked: every paid order has exactly one invoice, the invoice
// numbers have no gap and no duplicate, one confirmation email is queued per order and the stock
// went down once per order. BENCH_RUNS (1) > 1 repeats each measure and keeps the medians.
// Prints a Markdown table and writes reports/bench-pg-writes.json.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { NODE_FLAGS } from "../../server/node-flags.js";
import { postgresBinaries, startPostgres } from "../postgres/throwaway.js";
import { runChild } from "./http.js";
import { freePort, ROOT } from "./shop.js";

/** @param {string} name @param {number} fallback */
function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}: a number is expected, not "${raw}".`);
  return value;
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A process that prints "ready" (the emulator) or answers GET / with 200 (a shop) once it serves.
 * @param {string[]} args @param {Record<string, string>} env
 */
function startProcess(args, env) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: /** @type {NodeJS.ProcessEnv} */ (env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (/** @type {Buffer} */ chunk) => (out += chunk.toString()));
  child.stderr.on("data", (/** @type {Buffer} */ chunk) => (out += chunk.toString()));
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(killer);
  };
  /** @param {() => Promise<boolean>} isReady */
  const ready = async (isReady) => {
    const deadline = Date.now() + 60_000;
    while (!(await isReady())) {
      if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited during its start:\n${out}`);
      if (Date.now() > deadline) throw new Error(`${args.join(" ")} did not start within 60 s:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  return { output: () => out, stop, ready };
}

/**
 * One measure: `servers` shop processes on a new PostgreSQL database.
 * @param {number} servers
 * @param {{ build: string, shoppers: number, seconds: number, warmupSeconds: number }} options
 */
async function measure(servers, options) {
  const database = await startPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-pg-"));
  const secretKey = `sk_test_emulator_bench${Date.now()}`;
  const webhookSecret = `whsec_bench${Date.now()}`;
  // The demo's secrets, read by every server from the data folder they share.
  writeFileSync(path.join(dataDir, ".stripe-emulator-key"), secretKey, { mode: 0o600 });
  writeFileSync(path.join(dataDir, ".webhook-secret"), webhookSecret, { mode: 0o600 });
  const emulatorPort = await freePort();
  const ports = [];
  for (let i = 0; i < servers; i++) ports.push(await freePort());
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const started = [];
  const db = new pg.Pool({ connectionString: database.url, max: 2 });
  try {
    const emulator = startProcess(
      ["scripts/bench/emulator.js", JSON.stringify({ port: emulatorPort, secretKey, webhookSecret, servers: urls })],
      { PATH: process.env.PATH ?? "" },
    );
    started.push(emulator);
    await emulator.ready(async () => emulator.output().includes("ready"));
    for (const [i, port] of ports.entries()) {
      const shop = startProcess([...NODE_FLAGS, "server/index.js", path.join(options.build, "server/index.js")], {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: urls[i],
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        SHOP_MODE: "demo",
        TRUST_PROXY: "1",
        WEB_CONCURRENCY: "1",
        STRIPE_EMULATOR_PORT: String(emulatorPort),
        SHOP_STRIPE_EMULATOR_SHARED: "1",
        SESSION_SECRET: "",
        ADMIN_USERNAME: "admin",
        ADMIN_PASSWORD: "",
        STRIPE_SECRET_KEY: "",
        STRIPE_PUBLISHABLE_KEY: "",
        STRIPE_WEBHOOK_SECRET: "",
        LOG_REQUESTS: "",
        SMTP_URL: "",
        MAIL_FROM: "",
      });
      started.push(shop);
      // One after the other: the first applies the migrations and the seed.
      await shop.ready(
        async () =>
          (await fetch(`${urls[i]}/`).then(
            (r) => r.arrayBuffer().then(() => r.status),
            () => 0,
          )) === 200,
      );
    }
    // Enough stock for every order of the run: its decrease is checked below.
    await db.query("UPDATE products SET stock = 10000000 WHERE id = 1");
    const stockBefore = Number((await db.query("SELECT stock FROM products WHERE id = 1")).rows[0].stock);

    const load =
      /** @type {{ result: { paid: number, rps: number, p50: number, p99: number, errors: number, errorSamples: string[], orderIds: number[] }, kill(): Promise<void> }} */ (
        await runChild("pg-writes-load.js", {
          servers: urls,
          emulator: `http://127.0.0.1:${emulatorPort}`,
          secretKey,
          shoppers: options.shoppers,
          warmupSeconds: options.warmupSeconds,
          seconds: options.seconds,
        })
      );
    await load.kill();
    const { orderIds, ...result } = load.result;

    // Stripe's webhooks still on their way: wait until both events of every payment are recorded.
    const expectedEvents = orderIds.length * 2;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const { n } = (
        await db.query(
          "SELECT count(*)::int AS n FROM stripe_events WHERE type IN ('payment_intent.succeeded', 'charge.succeeded')",
        )
      ).rows[0];
      if (n >= expectedEvents) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const check = async (/** @type {string} */ sql, /** @type {unknown[]} */ params = []) =>
      (await db.query(sql, params)).rows[0];
    const paid = await check("SELECT count(*)::int AS n FROM orders WHERE id = ANY($1) AND payment_status = 'paid'", [orderIds]);
    const invoices = await check(
      `SELECT count(*)::int AS orders_with_one FROM (SELECT order_id FROM invoices WHERE kind = 'invoice' AND order_id = ANY($1) GROUP BY order_id HAVING count(*) = 1) AS one`,
      [orderIds],
    );
    const numbering = await check(
      "SELECT count(*)::int AS n, count(DISTINCT number)::int AS distinct_numbers, coalesce(max(sequence), 0)::int AS last FROM invoices WHERE kind = 'invoice'",
    );
    const confirmations = await check(
      `SELECT count(*)::int AS orders_with_one FROM (SELECT order_id FROM emails WHERE kind = 'order_confirmation' AND order_id = ANY($1) GROUP BY order_id HAVING count(*) = 1) AS one`,
      [orderIds],
    );
    const sold = await check(
      "SELECT coalesce(sum(quantity), 0)::int AS n FROM order_items WHERE product_id = 1 AND order_id = ANY($1)",
      [orderIds],
    );
    const stockAfter = Number((await check("SELECT stock FROM products WHERE id = 1")).stock);
    const problems = [];
    if (paid.n !== orderIds.length) problems.push(`${orderIds.length - paid.n} commandes payées non enregistrées comme payées`);
    if (invoices.orders_with_one !== orderIds.length)
      problems.push(`${orderIds.length - invoices.orders_with_one} commandes sans facture unique`);
    if (numbering.n !== numbering.distinct_numbers || numbering.last !== numbering.n)
      problems.push(
        `numérotation des factures : ${numbering.n} factures, ${numbering.distinct_numbers} numéros, dernier ${numbering.last}`,
      );
    if (confirmations.orders_with_one !== orderIds.length)
      problems.push(`${orderIds.length - confirmations.orders_with_one} commandes sans email de confirmation unique`);
    if (stockBefore - stockAfter !== sold.n) problems.push(`stock : −${stockBefore - stockAfter} pour ${sold.n} articles vendus`);
    return { servers, ...result, orders: orderIds.length, problems };
  } finally {
    for (const process of started.reverse()) await process.stop();
    await db.end();
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs the measures; undefined (and the reason printed) when PostgreSQL or the build is missing.
 * @param {{ runs?: number, shoppers?: number, seconds?: number, warmupSeconds?: number }} [settings]
 * @returns {Promise<{ lines: string[], report: unknown, ok: boolean, summary: import("./part-data.js").SummaryRow[] } | undefined>}
 */
export async function benchPostgresWrites(settings = {}) {
  if (!postgresBinaries()) {
    console.error("PostgreSQL n'est pas installé (initdb, pg_ctl) : installez le paquet Debian postgresql.");
    return undefined;
  }
  const build = path.resolve(ROOT, process.env.BENCH_BUILD || process.env.SHOP_BUILD_NAME || "build");
  if (!existsSync(path.join(build, "server/index.js"))) {
    console.error(
      `Pas de build de production (${path.relative(ROOT, build)}/server/index.js) : lancez \`npm run build\` d'abord.`,
    );
    return undefined;
  }
  const options = {
    build,
    shoppers: settings.shoppers ?? envNumber("BENCH_PG_SHOPPERS", 16),
    seconds: settings.seconds ?? envNumber("BENCH_DURATION", 10),
    warmupSeconds: settings.warmupSeconds ?? envNumber("BENCH_WARMUP", 2),
  };
  const runs = settings.runs ?? Math.max(1, Math.floor(envNumber("BENCH_RUNS", 1)));
  const counts = (process.env.BENCH_PG_SERVERS || "1,2").split(",").map(Number);
  const rows = [];
  for (const servers of counts) {
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await measure(servers, options));
    rows.push({
      servers,
      rps: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      orders: results.reduce((sum, r) => sum + r.orders, 0),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
      errorSamples: results.flatMap((r) => r.errorSamples).slice(0, 5),
      problems: results.flatMap((r) => r.problems),
    });
  }
  const CHECKS_OK = "une facture chacune, numéros sans trou, un email, stock −1 par article";
  const lines = [
    `PostgreSQL, commandes payées par seconde : ${options.shoppers} acheteurs à la fois, ${options.seconds} s mesurées` +
      ` (médiane de ${runs}) ; l'émulateur Stripe tourne dans son propre processus, son travail n'est pas compté.`,
    "",
    "| serveurs | commandes payées/s | p50 | p99 | commandes | erreurs | contrôles |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| ${row.servers} | ${row.rps.toFixed(1)} | ${Math.round(row.p50)} ms | ${Math.round(row.p99)} ms | ${row.orders} | ${row.errors} | ${row.problems.length ? row.problems.join(" ; ") : CHECKS_OK} |`,
    ),
    ...rows.flatMap((row) => row.errorSamples.map((sample) => `Erreur (${row.servers} serveur(s)) : ${sample}`)),
  ];
  const summary = rows.map((row) => ({
    measure: `PostgreSQL, ${row.servers} serveur${row.servers > 1 ? "s" : ""}, ${options.shoppers} acheteurs à la fois : commandes payées/s`,
    result: `${row.rps.toFixed(1)}/s, p50 ${Math.round(row.p50)} ms, p99 ${Math.round(row.p99)} ms ; ${row.orders} commandes, ${row.errors} erreurs ; ${row.problems.length ? row.problems.join(" ; ") : "contrôles OK"}`,
    target: "aucune commande perdue, doublée ou sans numéro",
    met: row.problems.length === 0 && row.orders > 0,
  }));
  return {
    lines,
    report: { options: { ...options, runs }, rows },
    ok: rows.every((row) => row.problems.length === 0 && row.orders > 0),
    summary,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await benchPostgresWrites();
  if (!result) process.exit(1);
  console.log(`\n${result.lines.join("\n")}`);
  mkdirSync(path.join(ROOT, "reports"), { recursive: true });
  writeFileSync(path.join(ROOT, "reports/bench-pg-writes.json"), JSON.stringify(result.report, null, 2));
  process.exit(result.ok ? 0 : 1);
}
