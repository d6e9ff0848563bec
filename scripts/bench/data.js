// @ts-check
// npm run bench:data: the back office and the API lists with two years of data. For each size
// (BENCH_DATA_SIZES, default "1000,10000,100000" orders) it fills a throwaway SQLite file with
// `npm run seed:scale` (customers, subscriptions, contacts and emails in proportion), starts the
// production build on it in one process (run `npm run build` first; SHOP_BUILD_NAME names another
// build folder), signs in as the demo administrator, then measures:
// - every admin page and every API list: the median of 5 requests (after one unmeasured), from
//   127.0.0.1, first byte to last, the server's CPU time per request (user + system of its process,
//   which a loaded machine disturbs less than the wall clock) and the size of the answer;
// - the CSV export of every order: its time, its size, and the server's peak memory (VmHWM).
// Then a Markdown table with the growth from the smallest to the largest size, against the
// targets: under 150 ms each at the largest size, at most 2× growth, the export under 200 MB.
// BENCH_DATA_DIR keeps the seeded files there (data-<orders>.db) and reuses them on the next run.
// Writes reports/bench-data.json.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { ROOT, startShopOrExit } from "./shop.js";

const SIZES = (process.env.BENCH_DATA_SIZES || "1000,10000,100000").split(",").map(Number);
const REPEAT = 5;
const TARGET_MS = 150;
const TARGET_GROWTH = 2;
const TARGET_EXPORT_MB = 200;
const DEMO_PASSWORD = "admin-demo-2026";
const KEEP_DIR = process.env.BENCH_DATA_DIR;

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

/** A seeded copy (BENCH_DATA_DIR's when kept) and the shop started on it, signed in. @param {number} orders */
async function open(orders) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-data-"));
  const file = path.join(dir, "shop.db");
  const kept = KEEP_DIR ? path.join(KEEP_DIR, `data-${orders}.db`) : undefined;
  if (kept && existsSync(kept)) copyFileSync(kept, file);
  else {
    seed(file, orders);
    if (kept) {
      mkdirSync(KEEP_DIR ?? "", { recursive: true });
      copyFileSync(file, kept);
    }
  }
  const paths = pathsOf(samples(file));
  const shop = await startShopOrExit({ env: { DATABASE_URL: file, WEB_CONCURRENCY: "1" } });
  const headers = { Cookie: await signIn(shop.url), "Accept-Encoding": "identity" };
  /** @type {Record<string, { ms: number, cpuMs: number, bytes: number, status: number }>} */
  const results = {};
  const close = async () => {
    await shop.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { orders, shop, headers, paths, results, close };
}

// Every size runs at once and each page is asked of each size in turn: a loaded machine slows
// them alike, and the growth compares figures taken at the same moments.
console.error(`${SIZES.join(", ")} commandes…`);
const shops = [];
/** @type {Awaited<ReturnType<typeof publicPageUnderAdminLoad>> | undefined} */
let publicUnderAdmin;
try {
  for (const size of SIZES) shops.push(await open(size));
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
  for (const one of shops) {
    const pid = one.shop.pid ?? 0;
    const beforeMb = memoryMb(pid, "VmRSS");
    const exportRun = await timed(`${one.shop.url}/admin/orders/export.csv?view=all`, one.headers);
    Object.assign(one, { export: { ...exportRun, beforeMb, peakMb: memoryMb(pid, "VmHWM") } });
  }
  publicUnderAdmin = await publicPageUnderAdminLoad(shops[shops.length - 1]);
} finally {
  for (const one of shops) await one.close();
}
const runs = shops.map((one) => ({
  orders: one.orders,
  results: one.results,
  export: /** @type {{ ms: number, bytes: number, beforeMb: number, peakMb: number }} */ (/** @type {any} */ (one).export),
}));

const first = runs[0];
const last = runs[runs.length - 1];
const kb = (/** @type {number} */ bytes) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${(bytes / 1000).toFixed(0)} kB`;
const lines = [
  `| page ou liste | ${runs.map((r) => `${r.orders.toLocaleString("fr-FR")} commandes`).join(" | ")} | < ${TARGET_MS} ms | croissance | ≤ ×${TARGET_GROWTH} |`,
  `|---|${runs.map(() => "---|").join("")}---|---|---|`,
];
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
}
lines.push(
  `| export CSV (toutes les commandes) | ${runs.map((r) => `${(r.export.ms / 1000).toFixed(2)} s, ${kb(r.export.bytes)}, ${r.export.beforeMb.toFixed(0)} MB avant, pic ${r.export.peakMb.toFixed(0)} MB`).join(" | ")} | ${last.export.peakMb < TARGET_EXPORT_MB ? "oui" : "**non**"} (< ${TARGET_EXPORT_MB} MB) | | |`,
);
console.log(
  `Temps serveur (médiane de ${REPEAT}, un processus, SQLite) ; objectifs : < ${TARGET_MS} ms à ${last.orders.toLocaleString("fr-FR")} commandes, croissance ≤ ×${TARGET_GROWTH}.\n`,
);
console.log(lines.join("\n"));
if (publicUnderAdmin) {
  const { page, alone, underLoad, adminRequests } = publicUnderAdmin;
  console.log(
    `\n\`GET /\` en cache, 200 requêtes à ${last.orders.toLocaleString("fr-FR")} commandes : seul, p50 ${alone.p50.toFixed(1)} ms, p99 ${alone.p99.toFixed(1)} ms ; pendant que \`${page}\` est demandée en boucle (${adminRequests} fois), p50 ${underLoad.p50.toFixed(1)} ms, p99 ${underLoad.p99.toFixed(1)} ms.`,
  );
}
console.log(`\n${missed === 0 ? "Tous les objectifs sont atteints." : `${missed} page(s) ou liste(s) manquent un objectif.`}`);
mkdirSync(path.join(ROOT, "reports"), { recursive: true });
writeFileSync(path.join(ROOT, "reports/bench-data.json"), JSON.stringify({ runs, publicUnderAdmin }, null, 2));
