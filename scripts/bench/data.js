// @ts-check
// npm run bench:data: the back office and the API lists with two years of data. For each size
// (BENCH_DATA_SIZES, default "1000,10000,100000" orders) it fills a throwaway SQLite file with
// `npm run seed:scale` (customers, subscriptions, contacts and emails in proportion), starts the
// production build on it in one process (run `npm run build` first), signs in as the demo
// administrator, then measures:
// - every admin page and every API list: the median of 5 requests (after one unmeasured), from
//   127.0.0.1, first byte to last, and the size of the answer;
// - the CSV export of every order: its time, its size, and the server's peak memory (VmHWM).
// Then a Markdown table with the growth from the smallest to the largest size, against the
// targets: under 150 ms each at the largest size, at most 2× growth, the export under 200 MB.
// Writes reports/bench-data.json.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
    return { order, subscription, prefix: order.customer_email.split("@")[0] };
  } finally {
    db.close();
  }
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

/** @param {number} orders */
async function measure(orders) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-data-"));
  const file = path.join(dir, "shop.db");
  try {
    seed(file, orders);
    const { order, subscription, prefix } = samples(file);
    const shop = await startShopOrExit({ env: { DATABASE_URL: file, WEB_CONCURRENCY: "1" } });
    try {
      const cookie = await signIn(shop.url);
      const headers = { Cookie: cookie, "Accept-Encoding": "identity" };
      const paths = [
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
        "/api/orders",
        "/api/orders?limit=200",
        "/api/users",
        "/api/admin/contacts",
        "/api/admin/subscriptions",
        "/api/admin/emails",
      ];
      /** @type {Record<string, { ms: number, bytes: number, status: number }>} */
      const results = {};
      for (const p of paths) {
        await timed(shop.url + p, headers);
        const runs = [];
        for (let i = 0; i < REPEAT; i++) runs.push(await timed(shop.url + p, headers));
        results[
          p
            .replace(String(order.id), "{commande}")
            .replace(String(order.user_id), "{client}")
            .replace(String(subscription.id), "{abonnement}")
            .replace(prefix, "{email}")
        ] = {
          ms: median(runs.map((r) => r.ms)),
          bytes: runs[0].bytes,
          status: runs[0].status,
        };
      }
      const pid = shop.pid;
      const beforeMb = pid ? memoryMb(pid, "VmRSS") : NaN;
      const exportRun = await timed(`${shop.url}/admin/orders/export.csv?view=all`, headers);
      return { orders, results, export: { ...exportRun, beforeMb, peakMb: pid ? memoryMb(pid, "VmHWM") : NaN } };
    } finally {
      await shop.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs = [];
for (const size of SIZES) {
  console.error(`${size} commandes…`);
  runs.push(await measure(size));
}

const first = runs[0];
const last = runs[runs.length - 1];
const kb = (/** @type {number} */ bytes) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${(bytes / 1000).toFixed(0)} kB`;
const lines = [
  `| page ou liste | ${runs.map((r) => `${r.orders.toLocaleString("fr-FR")} commandes`).join(" | ")} | croissance | objectif |`,
  `|---|${runs.map(() => "---|").join("")}---|---|`,
];
for (const p of Object.keys(first.results)) {
  const growth = last.results[p].ms / first.results[p].ms;
  const ok = last.results[p].ms < TARGET_MS && growth <= TARGET_GROWTH && last.results[p].status < 400;
  lines.push(
    `| \`${p}\` | ${runs.map((r) => `${r.results[p].ms.toFixed(1)} ms, ${kb(r.results[p].bytes)}${r.results[p].status >= 400 ? ` (${r.results[p].status})` : ""}`).join(" | ")} | ×${growth.toFixed(2)} | ${ok ? "atteint" : "manqué"} |`,
  );
}
lines.push(
  `| export CSV (toutes les commandes) | ${runs.map((r) => `${(r.export.ms / 1000).toFixed(2)} s, ${kb(r.export.bytes)}, ${r.export.beforeMb.toFixed(0)} MB avant, pic ${r.export.peakMb.toFixed(0)} MB`).join(" | ")} | | ${last.export.peakMb < TARGET_EXPORT_MB ? "atteint" : "manqué"} (< ${TARGET_EXPORT_MB} MB) |`,
);
console.log(
  `Temps serveur (médiane de ${REPEAT}, un processus, SQLite) ; objectifs : < ${TARGET_MS} ms à ${last.orders.toLocaleString("fr-FR")} commandes, croissance ≤ ×${TARGET_GROWTH}.\n`,
);
console.log(lines.join("\n"));
mkdirSync(path.join(ROOT, "reports"), { recursive: true });
writeFileSync(path.join(ROOT, "reports/bench-data.json"), JSON.stringify(runs, null, 2));
