// @ts-check
// npm run lighthouse: Lighthouse's scores for the landing page and the product page, on a
// phone (its mobile preset, simulated throttling), from the production build (run
// `npm run build` first). The shop starts as for `npm run bench` (demo mode, a free port of
// 127.0.0.1, a throwaway data folder); Debian's Chromium runs headless (CHROMIUM_PATH to
// choose another one), with its own background traffic off: the run needs no internet.
// Prints the four scores, FCP, LCP, TBT, CLS and the JavaScript transferred per page, and
// writes reports/lighthouse.json.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ROOT, startShopOrExit } from "./bench/shop.js";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const PAGES = ["/", "/product/1"];
const CATEGORIES = /** @type {const} */ (["performance", "accessibility", "best-practices", "seo"]);

if (!existsSync(CHROMIUM)) {
  console.error(`Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}

/** @param {import("lighthouse").Result} lhr @param {string} id */
const numeric = (lhr, id) => lhr.audits[id]?.numericValue ?? NaN;

/**
 * The JavaScript the page downloaded (bytes on the wire), from the network requests audit.
 * @param {import("lighthouse").Result} lhr
 */
function scriptBytes(lhr) {
  const details = /** @type {{ items?: { resourceType?: string, transferSize?: number }[] } | undefined} */ (
    lhr.audits["network-requests"]?.details
  );
  return (details?.items ?? [])
    .filter((item) => item.resourceType === "Script")
    .reduce((n, item) => n + (item.transferSize ?? 0), 0);
}

/**
 * The audits of the four categories that did not pass (score below 1), weighted ones first:
 * what to look at when a score is not 100.
 * @param {import("lighthouse").Result} lhr
 */
function failingAudits(lhr) {
  /** @type {{ id: string, category: string, weight: number, score: number, value: string }[]} */
  const failing = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (audit.scoreDisplayMode === "informative" || audit.scoreDisplayMode === "manual" || audit.scoreDisplayMode === "notApplicable") continue;
      failing.push({ id: ref.id, category, weight: ref.weight, score: audit.score, value: audit.displayValue ?? "" });
    }
  }
  return failing.sort((a, b) => b.weight - a.weight || a.score - b.score);
}

/** Requests that left the shop's origin (none expected: the pages load nothing from elsewhere). */
/** @param {import("lighthouse").Result} lhr @param {string} origin */
function foreignRequests(lhr, origin) {
  const details = /** @type {{ items?: { url?: string }[] } | undefined} */ (lhr.audits["network-requests"]?.details);
  return (details?.items ?? []).map((item) => item.url ?? "").filter((url) => /^https?:/.test(url) && !url.startsWith(origin));
}

const shop = await startShopOrExit();
/** @type {chromeLauncher.LaunchedChrome | null} */
let chrome = null;
try {
  chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  const results = [];
  for (const page of PAGES) {
    const runner = await lighthouse(shop.url + page, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      formFactor: "mobile",
      throttlingMethod: "simulate",
    });
    if (!runner) throw new Error(`Lighthouse returned nothing for ${page}`);
    const { lhr } = runner;
    if (lhr.runtimeError) throw new Error(`${page}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
    results.push({
      page,
      scores,
      fcpMs: numeric(lhr, "first-contentful-paint"),
      lcpMs: numeric(lhr, "largest-contentful-paint"),
      tbtMs: numeric(lhr, "total-blocking-time"),
      cls: numeric(lhr, "cumulative-layout-shift"),
      jsTransferredBytes: scriptBytes(lhr),
      foreignRequests: foreignRequests(lhr, shop.url),
      failingAudits: failingAudits(lhr),
      warnings: lhr.runWarnings,
      lighthouseVersion: lhr.lighthouseVersion,
    });
  }

  console.log(`\nLighthouse ${results[0]?.lighthouseVersion}, mobile preset, simulated throttling, ${CHROMIUM}\n`);
  console.log("| page | performance | accessibility | best-practices | seo | FCP | LCP | TBT | CLS | JS transferred |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of results) {
    const s = r.scores;
    console.log(
      `| ${r.page} | ${s.performance} | ${s.accessibility} | ${s["best-practices"]} | ${s.seo} | ${(r.fcpMs / 1000).toFixed(1)} s | ${(r.lcpMs / 1000).toFixed(1)} s | ${Math.round(r.tbtMs)} ms | ${r.cls.toFixed(3)} | ${(r.jsTransferredBytes / 1024).toFixed(1)} kB |`,
    );
  }
  for (const r of results) {
    for (const warning of r.warnings) console.log(`${r.page}: ${warning}`);
    if (r.foreignRequests.length) console.log(`${r.page}: requests outside the shop: ${r.foreignRequests.join(", ")}`);
    for (const a of r.failingAudits) {
      console.log(`${r.page}: ${a.category} audit ${a.id} scores ${a.score} (weight ${a.weight})${a.value ? `: ${a.value}` : ""}`);
    }
  }
  mkdirSync(path.join(ROOT, "reports"), { recursive: true });
  writeFileSync(
    path.join(ROOT, "reports/lighthouse.json"),
    `${JSON.stringify({ date: new Date().toISOString(), chromium: CHROMIUM, results }, null, 2)}\n`,
  );
  console.log("\nreports/lighthouse.json written.");
} finally {
  chrome?.kill();
  await shop.stop();
}
