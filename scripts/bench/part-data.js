// @ts-check
// The bench's "data" part, also alone as `npm run bench:data` (scripts/bench/data.js): the back
// office and the API lists with two years of data. For each size (BENCH_DATA_SIZES, default
// "1000,100000" orders; add 10000 for the middle) it fills a throwaway SQLite file with
// `npm run seed:scale` (customers, subscriptions, contacts and emails in proportion), starts the
// production build on it in one process (run `npm run build` first; SHOP_BUILD_NAME names another
// build folder), signs in as the demo administrator, then measures:
// - every admin page and every API list: the median of 5 requests (after one unmeasured), from
//   127.0.0.1, first byte to last, the server's CPU time per request (user + system of its process,
//   which a loaded machine disturbs less than the wall clock) and the size of the answer;
// - the CSV export of every order, after all the pages: its time, its size, and the process's
//   peak memory during the export (its high-water mark reset just before, through
//   /proc/<pid>/clear_refs, so that what the process held at its start or for a page before does
//   not count as the export's).
// Then a Markdown table with the growth from the smallest to the largest size, against the
// targets: under 150 ms each at the largest size, at most 2× growth, the export under 200 MB.
// BENCH_DATA_DIR keeps the seeded files there (data-<orders>.db) and reuses them on the next run.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { ROOT, startShop } from "./shop.js";

const REPEAT = 5;
const TARGET_MS = 150;
const TARGET_GROWTH = 2;
const TARGET_EXPORT_MB = 200;
const DEMO_PASSWORD = "admin-demo-2026";

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** @param {string} file @param {number} orders */
function seed(file, orders) {
  const run = spawnSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "scripts/seed-scale.ts", "--orders", String(orders), "--file", file],
    {
      cwd: ROOT,
      env: { ...process.env, SHOP_MODE: "demo", DATABASE_URL: file },
      encoding: "utf8",
    },
  );
  if (run.status !== 0) throw new Error(`seed:scale --orders ${orders}: ${run.stderr || run.stdout}`);
  process.stderr.write(run.stdout);
}

/** Paths that depend on the data: a customer with orders, the start of an email, a subscription. @param {string} file */
function samples(file) {
  const db = new Database(file, { readonly: true });
  try {
    const order = /** @type {{ id: number, user_id: number, customer_email: string }} */ (
      db
        .prepare("select id, user_id, customer_email from orders where user_id is not null order by created_at desc limit 1")
        .get()
    );
    const subscription = /** @type {{ id: number }} */ (
      db.prepare("select id from subscriptions order by id desc limit 1").get()
    );
    const email = /** @type {{ id: number }} */ (db.prepare("select id from emails order by id desc limit 1").get());
    return { order, subscription, email, prefix: order.customer_email.split("@")[0] };
  } finally {
    db.close();
  }
}

/** A process's CPU time so far (user + system), in ms; Linux only. @param {number} pid */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** @param {string} url @param {Record<string, string>} headers */
async function timed(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers, redirect: "manual" });
  const body = Buffer.from(await response.arrayBuffer());
  return { ms: performance.now() - started, bytes: body.length, status: response.status };
}

/** @param {string} base */
async function signIn(base) {
  const response = await fetch(`${base}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ username: "admin", password: DEMO_PASSWORD }),
  });
  const cookie = (response.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
  if (response.status !== 200 || !cookie) throw new Error(`Admin sign-in refused: ${response.status} ${await response.text()}`);
  return cookie;
}

/** A process's resident memory now (VmRSS) or at its peak (VmHWM), in MB; Linux only. @param {number} pid @param {"VmRSS" | "VmHWM"} field */
function memoryMb(pid, field) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The admin pages and API lists measured, with the data's own ids. @param {ReturnType<typeof samples>} sample */
function pathsOf({ order, subscription, email, prefix }) {
  return [
    "/admin/dashboard",
    "/admin/orders",
    `/admin/orders?q=${encodeURIComponent(prefix)}`,
    "/admin/orders?page=40",
    `/admin/orders/${order.id}`,
    `/admin/customers/${order.user_id}`,
    `/admin/customers/${order.user_id}/export.json`,
    "/admin/subscriptions",
    `/admin/subscriptions/${subscription.id}`,
    "/admin/users",
    "/admin/contacts",
    "/admin/emails",
    `/admin/emails/${email.id}`,
    "/admin/promotions",
    "/admin/analytique",
    "/admin/products",
    "/admin/settings",
    "/admin/sante",
    "/admin/sessions",
    "/admin/securite",
    "/api/orders",
    "/api/orders?limit=200",
    `/api/orders/${order.id}`,
    "/api/users",
    "/api/products",
    `/api/admin/customers/${order.user_id}`,
    `/api/admin/customers/${order.user_id}/export`,
    "/api/admin/contacts",
    "/api/admin/subscriptions",
    "/api/admin/emails",
    "/api/admin/promotions",
    "/api/admin/analytics",
    "/api/admin/sessions",
    "/api/settings",
  ].map((url) => ({
    url,
    label: url
      .replace(new RegExp(`^(/admin|/api)/orders/${order.id}\\b`), "$1/orders/{commande}")
      .replace(new RegExp(`/customers/${order.user_id}\\b`), "/customers/{client}")
      .replace(new RegExp(`/subscriptions/${subscription.id}\\b`), "/subscriptions/{abonnement}")
      .replace(new RegExp(`/emails/${email.id}\\b`), "/emails/{email}")
      .replace(`q=${encodeURIComponent(prefix)}`, "q={email}"),
  }));
}

/** @param {number[]} values @param {number} q */
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];

/**
 * « No admin request may hold a process long enough to slow the public pages »: the cached home
 * page (anonymous) asked 200 times in a row, alone, then while an administrator asks the slowest
 * admin page of the largest size over and over, in the same process.
 * @param {Awaited<ReturnType<typeof open>>} one
 */
async function publicPageUnderAdminLoad(one) {
  const heaviest = one.paths
    .filter((p) => p.url.startsWith("/admin/"))
    .reduce((a, b) => ((one.results[b.label]?.ms ?? 0) > (one.results[a.label]?.ms ?? 0) ? b : a));
  const home = async () => {
    const times = [];
    for (let i = 0; i < 200; i++) times.push((await timed(`${one.shop.url}/`, { "Accept-Encoding": "identity" })).ms);
    return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
  };
  await home();
  const alone = await home();
  let loading = true;
  let adminRequests = 0;
  const loop = (async () => {
    while (loading) {
      await timed(one.shop.url + heaviest.url, one.headers);
      adminRequests++;
    }
  })();
  const underLoad = await home();
  loading = false;
  await loop;
  return { page: heaviest.label, alone, underLoad, adminRequests };
}

/**
 * A seeded copy (BENCH_DATA_DIR's when kept) and the shop started on it, signed in.
 * @param {number} orders @param {string | undefined} keepDir
 */
async function open(orders, keepDir) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-data-"));
  const file = path.join(dir, "shop.db");
  const kept = keepDir ? path.join(keepDir, `data-${orders}.db`) : undefined;
  if (kept && existsSync(kept)) copyFileSync(kept, file);
  else {
    seed(file, orders);
    if (kept) {
      mkdirSync(keepDir ?? "", { recursive: true });
      copyFileSync(file, kept);
    }
  }
  const paths = pathsOf(samples(file));
  const shop = await startShop({ env: { DATABASE_URL: file, WEB_CONCURRENCY: "1" } });
  const headers = { Cookie: await signIn(shop.url), "Accept-Encoding": "identity" };
  /** @type {Record<string, { ms: number, cpuMs: number, bytes: number, status: number }>} */
  const results = {};
  const close = async () => {
    await shop.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { orders, shop, headers, paths, results, close };
}

/**
 * The process's peak resident memory during `work`: its high-water mark is brought down to what
 * it holds now (Linux's clear_refs, "5"), so that the peak read after is the work's, not the
 * start's or a page's before it. Where that is refused, the lifetime peak, said so.
 * @param {number} pid @param {() => Promise<T>} work
 * @template T
 */
async function peakDuring(pid, work) {
  const beforeMb = memoryMb(pid, "VmRSS");
  let reset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    reset = false;
  }
  const result = await work();
  return { result, beforeMb, peakMb: memoryMb(pid, "VmHWM"), peakOfTheWorkOnly: reset };
}

/**
 * The CSV export of every order, its time, size and the process's memory around it.
 * @param {Awaited<ReturnType<typeof open>>} one
 * @returns {Promise<ExportRun>}
 */
async function exportMeasured(one) {
  const { result, ...memory } = await peakDuring(one.shop.pid ?? 0, () =>
    timed(`${one.shop.url}/admin/orders/export.csv?view=all`, one.headers),
  );
  if (result.status !== 200) throw new Error(`The export answered ${result.status}.`);
  return { ms: result.ms, bytes: result.bytes, ...memory };
}

/** @param {number} bytes */
const kb = (bytes) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${(bytes / 1000).toFixed(0)} kB`);

/**
 * @typedef {{ measure: string, result: string, target: string, met: boolean | null }} SummaryRow
 * @typedef {{ ms: number, bytes: number, beforeMb: number, peakMb: number, peakOfTheWorkOnly: boolean }} ExportRun
 */

/**
 * Every size at once, each page asked of each size in turn: a loaded machine slows them alike,
 * and the growth compares figures taken at the same moments.
 * @param {{ sizes: number[], keepDir?: string }} options
 * @returns {Promise<{ lines: string[], report: unknown, ok: boolean, summary: SummaryRow[] }>}
 */
export async function benchData({ sizes, keepDir }) {
  console.error(`${sizes.join(", ")} commandes…`);
  /** @type {Awaited<ReturnType<typeof open>>[]} */
  const shops = [];
  /** @type {Map<number, ExportRun>} */
  const exports = new Map();
  /** @type {Awaited<ReturnType<typeof publicPageUnderAdminLoad>> | undefined} */
  let publicUnderAdmin;
  /** @type {ExportRun | undefined} */
  let freshExport;
  try {
    for (const size of sizes) shops.push(await open(size, keepDir));
    // The export of the largest size first in a process that has done nothing else since its
    // start, then again below after every page: what the export needs, and what it adds to a
    // process that has served the back office for a while.
    const largest = shops[shops.length - 1];
    const fresh = await exportMeasured(largest);
    for (let p = 0; p < shops[0].paths.length; p++) {
      for (const one of shops) await timed(one.shop.url + one.paths[p].url, one.headers);
      /** @type {{ ms: number, cpuMs: number, bytes: number, status: number }[][]} */
      const runsOf = shops.map(() => []);
      for (let i = 0; i < REPEAT; i++) {
        for (const [k, one] of shops.entries()) {
          const pid = one.shop.pid ?? 0;
          const cpuBefore = cpuMs(pid);
          const run = await timed(one.shop.url + one.paths[p].url, one.headers);
          runsOf[k].push({ ...run, cpuMs: cpuMs(pid) - cpuBefore });
        }
      }
      for (const [k, one] of shops.entries()) {
        const runs = runsOf[k];
        one.results[one.paths[p].label] = {
          ms: median(runs.map((r) => r.ms)),
          // The clock ticks every 10 ms: the mean of the 5 is finer than their median.
          cpuMs: runs.reduce((sum, r) => sum + r.cpuMs, 0) / runs.length,
          bytes: runs[0].bytes,
          status: runs[0].status,
        };
      }
    }
    for (const one of shops) exports.set(one.orders, await exportMeasured(one));
    freshExport = fresh;
    publicUnderAdmin = await publicPageUnderAdminLoad(shops[shops.length - 1]);
  } finally {
    for (const one of shops) await one.close();
  }
  const runs = shops.map((one) => ({
    orders: one.orders,
    results: one.results,
    export: /** @type {ExportRun} */ (exports.get(one.orders)),
  }));

  const first = runs[0];
  const last = runs[runs.length - 1];
  const lines = [
    `Temps serveur (médiane de ${REPEAT}, un processus, SQLite) ; objectifs : < ${TARGET_MS} ms à ${last.orders.toLocaleString("fr-FR")} commandes, croissance ≤ ×${TARGET_GROWTH}.`,
    "",
    `| page ou liste | ${runs.map((r) => `${r.orders.toLocaleString("fr-FR")} commandes`).join(" | ")} | < ${TARGET_MS} ms | croissance | ≤ ×${TARGET_GROWTH} |`,
    `|---|${runs.map(() => "---|").join("")}---|---|---|`,
  ];
  /** @type {SummaryRow[]} */
  const summary = [];
  let missed = 0;
  for (const p of Object.keys(first.results)) {
    const growth = last.results[p].ms / first.results[p].ms;
    const fast = last.results[p].ms < TARGET_MS && last.results[p].status < 400;
    const flat = growth <= TARGET_GROWTH;
    if (!fast || !flat) missed++;
    lines.push(
      `| \`${p}\` | ${runs
        .map((r) => {
          const one = r.results[p];
          return `${one.ms.toFixed(1)} ms (CPU ${one.cpuMs.toFixed(0)} ms), ${kb(one.bytes)}${one.status >= 400 ? ` (${one.status})` : ""}`;
        })
        .join(" | ")} | ${fast ? "oui" : "**non**"} | ×${growth.toFixed(2)} | ${flat ? "oui" : "**non**"} |`,
    );
    summary.push({
      measure: `\`${p}\`, ${first.orders.toLocaleString("fr-FR")} → ${last.orders.toLocaleString("fr-FR")} commandes`,
      result: `${first.results[p].ms.toFixed(1)} → ${last.results[p].ms.toFixed(1)} ms (×${growth.toFixed(2)}), ${kb(last.results[p].bytes)}`,
      target: `< ${TARGET_MS} ms, ≤ ×${TARGET_GROWTH}`,
      met: fast && flat,
    });
  }
  // The target is the export's: a process that starts and exports every order stays under it,
  // and the export adds no more to a process that had served the back office before.
  const fresh = /** @type {ExportRun} */ (freshExport);
  const exportMet = fresh.peakMb < TARGET_EXPORT_MB;
  const peakWord = (/** @type {ExportRun} */ e) =>
    e.peakOfTheWorkOnly ? "pic pendant l'export" : "pic du processus depuis son départ";
  const added = (/** @type {ExportRun} */ e) => `+${Math.max(0, e.peakMb - e.beforeMb).toFixed(0)} MB`;
  lines.push(
    `| export CSV (toutes les commandes), après toutes les pages | ${runs.map((r) => `${(r.export.ms / 1000).toFixed(2)} s, ${kb(r.export.bytes)}, ${r.export.beforeMb.toFixed(0)} MB avant, ${peakWord(r.export)} ${r.export.peakMb.toFixed(0)} MB (${added(r.export)})`).join(" | ")} | | | |`,
    `| export CSV de ${last.orders.toLocaleString("fr-FR")} commandes par un processus qui vient de démarrer | ${runs.map((r) => (r === last ? `${(fresh.ms / 1000).toFixed(2)} s, ${fresh.beforeMb.toFixed(0)} MB avant, ${peakWord(fresh)} ${fresh.peakMb.toFixed(0)} MB (${added(fresh)})` : "")).join(" | ")} | ${exportMet ? "oui" : "**non**"} (< ${TARGET_EXPORT_MB} MB) | | |`,
  );
  if (!exportMet) missed++;
  summary.push({
    measure: `export CSV de ${last.orders.toLocaleString("fr-FR")} commandes (toute la période)`,
    result: `${(fresh.ms / 1000).toFixed(2)} s, ${kb(fresh.bytes)} ; processus qui vient de démarrer : ${peakWord(fresh)} ${fresh.peakMb.toFixed(0)} MB (${added(fresh)}) ; après toutes les pages : ${last.export.beforeMb.toFixed(0)} MB avant, pic ${last.export.peakMb.toFixed(0)} MB (${added(last.export)})`,
    target: `< ${TARGET_EXPORT_MB} MB`,
    met: exportMet,
  });
  if (publicUnderAdmin) {
    const { page, alone, underLoad, adminRequests } = publicUnderAdmin;
    lines.push(
      "",
      `\`GET /\` en cache, 200 requêtes à ${last.orders.toLocaleString("fr-FR")} commandes : seul, p50 ${alone.p50.toFixed(1)} ms, p99 ${alone.p99.toFixed(1)} ms ; pendant que \`${page}\` est demandée en boucle (${adminRequests} fois), p50 ${underLoad.p50.toFixed(1)} ms, p99 ${underLoad.p99.toFixed(1)} ms.`,
    );
    summary.push({
      measure: `\`GET /\` en cache pendant que \`${page}\` est demandée en boucle (${last.orders.toLocaleString("fr-FR")} commandes)`,
      result: `p99 ${underLoad.p99.toFixed(1)} ms (seul : ${alone.p99.toFixed(1)} ms)`,
      target: "",
      met: null,
    });
  }
  lines.push("", missed === 0 ? "Tous les objectifs sont atteints." : `${missed} page(s) ou liste(s) manquent un objectif.`);
  return { lines, report: { runs, freshExport: fresh, publicUnderAdmin }, ok: true, summary };
}
