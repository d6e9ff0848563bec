// npm run bench: builds, starts the production server on 127.0.0.1 and measures, in one run,
// the landing page, the product page and GET /api/products/1 under concurrent load
// (requests/s, p50/p99 latency), next to a bare node:http server returning the same bytes
// (the ceiling). It also reports the JavaScript each page ships (gzip kB).
import { execSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const PORT = Number(process.env.BENCH_PORT ?? 3400);
const CEILING_PORT = PORT + 1;
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PATHS = ["/", "/product/1", "/api/products/1"];

if (!process.env.BENCH_SKIP_BUILD) execSync("npx remix build", { stdio: "inherit" });

const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
const server = spawn(process.execPath, ["server/index.js", "build/index.js"], {
  env: { ...process.env, HOST: "127.0.0.1", PORT: String(PORT), NODE_ENV: "production", SHOP_MODE: "demo", DATABASE_URL: path.join(dataDir, "shop.db"), STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "" },
  stdio: ["ignore", "ignore", "inherit"],
});

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function get(port, p) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: p, agent, headers: { "accept-encoding": "identity" } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
  });
}

async function waitUp() {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await get(PORT, "/")).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start");
}

async function load(port, p) {
  const latencies = [];
  let errors = 0;
  const end = Date.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const t = process.hrtime.bigint();
        try {
          const r = await get(port, p);
          if (r.status !== 200) errors++;
        } catch {
          errors++;
        }
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { rps: latencies.length / (DURATION_MS / 1000), p50: pct(0.5), p99: pct(0.99), errors };
}

async function shippedJs(p) {
  const html = (await get(PORT, p)).body.toString();
  const srcs = new Set([...html.matchAll(/(?:src|href)="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]));
  let gz = 0;
  for (const src of srcs) gz += gzipSync((await get(PORT, src)).body).length;
  return { files: srcs.size, gzipKb: gz / 1024 };
}

try {
  await waitUp();
  const rows = [];
  for (const p of PATHS) {
    const sample = await get(PORT, p);
    const ceiling = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": sample.headers["content-type"] });
      res.end(sample.body);
    });
    await new Promise((r) => ceiling.listen(CEILING_PORT, "127.0.0.1", r));
    await load(PORT, p); // warm-up
    const app = await load(PORT, p);
    const bare = await load(CEILING_PORT, p);
    await new Promise((r) => ceiling.close(r));
    const js = p.startsWith("/api") ? null : await shippedJs(p);
    rows.push({
      path: p,
      "app req/s": Math.round(app.rps),
      "app p50 ms": app.p50.toFixed(1),
      "app p99 ms": app.p99.toFixed(1),
      "ceiling req/s": Math.round(bare.rps),
      "app/ceiling": (app.rps / bare.rps).toFixed(2),
      errors: app.errors,
      "JS gzip kB": js ? js.gzipKb.toFixed(1) : "-",
      bytes: sample.body.length,
    });
  }
  console.log(`\n${CONNECTIONS} connections, ${DURATION_MS / 1000} s per measure, ${os.cpus().length} cores`);
  console.table(rows);
} finally {
  server.kill();
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
