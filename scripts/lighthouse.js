// @ts-check
// npm run lighthouse: the landing page and the product page on a phone, from the production
// build (run `npm run build` first), each figure the median of LIGHTHOUSE_RUNS runs (5 by
// default). The shop starts as for `npm run bench` (demo mode, a free port of 127.0.0.1, a
// throwaway data folder); Debian's Chromium runs headless (CHROMIUM_PATH to choose another
// one), with its own background traffic off: the run needs no internet. Two profiles:
// - "slow 4G phone": 150 ms of latency, 1.6 Mbps down, 750 kbps up, a processor 4× slower, a
//   390×844 screen, applied with the DevTools Protocol to Chromium driven by Playwright, a new
//   browser context (empty cache) for every run (scripts/bench/phone.js);
// - "Lighthouse mobile": Lighthouse's mobile preset with its simulated throttling, for the
//   scores, FCP, LCP, TBT and CLS; the shopper's times (below) with the same preset applied to
//   the browser as Lighthouse's own DevTools throttling does (562.5 ms per request, 1.44 Mbps
//   down, 675 kbps up, processor 4× slower, 412×823 screen), since a simulated run only
//   estimates the times of the page's own events.
// For each page and profile: when the page has hydrated (html[data-hydrated]), when the cart
// shows after a shopper taps « Commander » as soon as they see it (and what the tap did: the
// cart drawer, or a whole page), the load event, LCP, TBT and CLS, all counted from the start of
// the navigation. Prints Lighthouse's four scores, FCP, LCP, TBT, CLS and the JavaScript
// transferred, then the shopper's table, and writes reports/lighthouse.json.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { screenEmulationMetrics, throttling, userAgents } from "lighthouse/core/config/constants.js";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { launchPhoneBrowser, loadRun, tapRun } from "./bench/phone.js";
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
const RUNS = Number(process.env.LIGHTHOUSE_RUNS || 5);

/** @type {import("./bench/phone.js").PhoneProfile[]} */
const PROFILES = [
  {
    id: "slow-4g-phone",
    label: "slow 4G phone",
    latencyMs: 150,
    downloadKbps: 1.6 * 1024,
    uploadKbps: 750,
    cpuSlowdown: 4,
    width: 390,
    height: 844,
    deviceScaleFactor: 3,
    userAgent: userAgents.mobile,
  },
  {
    id: "lighthouse-mobile",
    label: "Lighthouse mobile",
    latencyMs: throttling.mobileSlow4G.requestLatencyMs,
    downloadKbps: throttling.mobileSlow4G.downloadThroughputKbps,
    uploadKbps: throttling.mobileSlow4G.uploadThroughputKbps,
    cpuSlowdown: throttling.mobileSlow4G.cpuSlowdownMultiplier,
    width: screenEmulationMetrics.mobile.width,
    height: screenEmulationMetrics.mobile.height,
    deviceScaleFactor: screenEmulationMetrics.mobile.deviceScaleFactor,
    userAgent: userAgents.mobile,
  },
];

if (!existsSync(CHROMIUM)) {
  console.error(`Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`LIGHTHOUSE_RUNS must be a whole number of runs, not ${process.env.LIGHTHOUSE_RUNS}.`);
  process.exit(1);
}

/** @param {import("lighthouse").Result} lhr @param {string} id */
const numeric = (lhr, id) => lhr.audits[id]?.numericValue ?? NaN;

/**
 * The median of the figures measured (null when none was).
 * @param {(number | null | undefined)[]} values
 * @returns {number | null}
 */
function median(values) {
  const sorted = values
    .filter(/** @returns {v is number} */ (v) => typeof v === "number" && Number.isFinite(v))
    .sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

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
      if (
        audit.scoreDisplayMode === "informative" ||
        audit.scoreDisplayMode === "manual" ||
        audit.scoreDisplayMode === "notApplicable"
      )
        continue;
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

/** The figures of one Lighthouse run. @param {import("lighthouse").Result} lhr */
function lighthouseFigures(lhr) {
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
    fcpMs: numeric(lhr, "first-contentful-paint"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    cls: numeric(lhr, "cumulative-layout-shift"),
    jsTransferredBytes: scriptBytes(lhr),
  };
}

/**
 * What the taps did over the runs, the most frequent first: "drawer (5/5)".
 * @param {import("./bench/phone.js").TapResult[]} taps
 */
function outcomes(taps) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const t of taps) counts.set(t.outcome, (counts.get(t.outcome) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([outcome, n]) => `${outcome} (${n}/${taps.length})`)
    .join("; ");
}

/**
 * One Lighthouse run of a page. A run that fails to load the page (on a busy machine Chromium
 * once showed an error page instead) is tried again, twice at most.
 * @param {number} port
 * @param {string} url
 */
async function lighthouseRun(port, url) {
  for (let attempt = 1; ; attempt++) {
    const runner = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      formFactor: "mobile",
      throttlingMethod: "simulate",
    });
    if (!runner) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = runner;
    if (!lhr.runtimeError) return lhr;
    const failure = `${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
    if (attempt === 3) throw new Error(failure);
    console.error(`${failure}: tried again`);
  }
}

/** @param {number | null} ms */
const seconds = (ms) => (ms === null ? "–" : `${(ms / 1000).toFixed(2)} s`);
/** @param {number | null} ms */
const millis = (ms) => (ms === null ? "–" : `${Math.round(ms)} ms`);
/** @param {number | null} value */
const shift = (value) => (value === null ? "–" : value.toFixed(3));

const shop = await startShopOrExit();
/** @type {chromeLauncher.LaunchedChrome | null} */
let chrome = null;
/** @type {import("@playwright/test").Browser | null} */
let browser = null;
try {
  chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  browser = await launchPhoneBrowser(CHROMIUM);

  // Warm-up, not measured: the shop's first answers of each page and of the cart.
  for (const page of PAGES) {
    await loadRun(browser, shop.url + page, null);
    await tapRun(browser, shop.url + page, null);
  }

  /** @type {Record<string, import("lighthouse").Result[]>} */
  const lhrs = Object.fromEntries(PAGES.map((p) => [p, []]));
  /** @type {Record<string, { load: import("./bench/phone.js").LoadResult[], tap: import("./bench/phone.js").TapResult[] }>} */
  const shopper = Object.fromEntries(PAGES.flatMap((p) => PROFILES.map((f) => [`${p} ${f.id}`, { load: [], tap: [] }])));

  // One run of every measure after the other, round after round: a machine busy for a while
  // weighs on all of them alike. Never two at once.
  for (let run = 1; run <= RUNS; run++) {
    for (const page of PAGES) {
      const notes = [];
      for (const profile of PROFILES) {
        const load = await loadRun(browser, shop.url + page, profile);
        const tap = await tapRun(browser, shop.url + page, profile);
        shopper[`${page} ${profile.id}`].load.push(load);
        shopper[`${page} ${profile.id}`].tap.push(tap);
        notes.push(`${profile.label}: hydrated ${seconds(load.hydratedMs)}, cart ${seconds(tap.cartMs)} (${tap.outcome})`);
      }
      const lhr = await lighthouseRun(chrome.port, shop.url + page);
      lhrs[page].push(lhr);
      console.error(
        `run ${run}/${RUNS} ${page}: ${notes.join("; ")}; Lighthouse performance ${lighthouseFigures(lhr).scores.performance}`,
      );
    }
  }

  const results = PAGES.map((page) => {
    const runs = lhrs[page].map(lighthouseFigures);
    // The audits, warnings and requests of the run closest to the median (FCP and TTI).
    const lhr = computeMedianRun(lhrs[page]);
    return {
      page,
      scores: Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))])),
      fcpMs: median(runs.map((r) => r.fcpMs)),
      lcpMs: median(runs.map((r) => r.lcpMs)),
      tbtMs: median(runs.map((r) => r.tbtMs)),
      cls: median(runs.map((r) => r.cls)),
      jsTransferredBytes: median(runs.map((r) => r.jsTransferredBytes)),
      foreignRequests: foreignRequests(lhr, shop.url),
      failingAudits: failingAudits(lhr),
      warnings: lhr.runWarnings,
      lighthouseVersion: lhr.lighthouseVersion,
      runs,
    };
  });

  const phone = PAGES.flatMap((page) =>
    PROFILES.map((profile) => {
      const { load, tap } = shopper[`${page} ${profile.id}`];
      const lh = /** @type {(typeof results)[number]} */ (results.find((r) => r.page === page));
      const simulated = profile.id === "lighthouse-mobile";
      return {
        page,
        profile: profile.id,
        settings: profile,
        hydratedMs: median(load.map((r) => r.hydratedMs)),
        cartMs: median(tap.map((r) => r.cartMs)),
        orderButtonMs: median(tap.map((r) => r.orderButtonMs)),
        // The last tap: the order form's « Commander » (on the landing page, after its link).
        tapMs: median(tap.map((r) => r.taps.at(-1)?.atMs)),
        taps: outcomes(tap),
        loadMs: median(load.map((r) => r.loadMs)),
        // Lighthouse mobile: LCP, TBT and CLS of its simulated runs; the browser's own figures stay under `observed`.
        lcpMs: simulated ? lh.lcpMs : median(load.map((r) => r.lcpMs)),
        tbtMs: simulated ? lh.tbtMs : median(load.map((r) => r.tbtMs)),
        cls: simulated ? lh.cls : median(load.map((r) => r.cls)),
        performance: simulated ? lh.scores.performance : null,
        observed: {
          fcpMs: median(load.map((r) => r.fcpMs)),
          lcpMs: median(load.map((r) => r.lcpMs)),
          tbtMs: median(load.map((r) => r.tbtMs)),
          cls: median(load.map((r) => r.cls)),
        },
        runs: { load, tap },
      };
    }),
  );

  console.log(
    `\nLighthouse ${results[0]?.lighthouseVersion}, mobile preset, simulated throttling, ${CHROMIUM}, medians of ${RUNS} runs\n`,
  );
  console.log("| page | performance | accessibility | best-practices | seo | FCP | LCP | TBT | CLS | JS transferred |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of results) {
    const s = r.scores;
    console.log(
      `| ${r.page} | ${s.performance} | ${s.accessibility} | ${s["best-practices"]} | ${s.seo} | ${seconds(r.fcpMs)} | ${seconds(r.lcpMs)} | ${millis(r.tbtMs)} | ${shift(r.cls)} | ${((r.jsTransferredBytes ?? 0) / 1024).toFixed(1)} kB |`,
    );
  }
  for (const r of results) {
    for (const warning of r.warnings) console.log(`${r.page}: ${warning}`);
    if (r.foreignRequests.length) console.log(`${r.page}: requests outside the shop: ${r.foreignRequests.join(", ")}`);
    for (const a of r.failingAudits) {
      console.log(
        `${r.page}: ${a.category} audit ${a.id} scores ${a.score} (weight ${a.weight})${a.value ? `: ${a.value}` : ""}`,
      );
    }
  }

  console.log(`\nThe shopper's view, medians of ${RUNS} runs, times from the start of the navigation:`);
  console.log(
    "- slow 4G phone: 150 ms, 1.6 Mbps down, 750 kbps up, processor 4× slower, 390×844, DevTools throttling; LCP, TBT and CLS seen by the page;",
  );
  console.log(
    "- Lighthouse mobile: times under Lighthouse's mobile throttling applied to the browser; LCP, TBT, CLS and score from its simulated runs.",
  );
  console.log(
    "« Commander » is tapped as soon as it shows (on / « Commander maintenant » first, then « Commander » on the product page);",
  );
  console.log("cart = a line of the cart shown, in the drawer or on the page the tap led to.\n");
  console.log(
    "| page | profile | hydrated | « Commander » tapped | cart shown | what the tap did | load | LCP | TBT | CLS | performance |",
  );
  console.log("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const r of phone) {
    console.log(
      `| ${r.page} | ${r.settings.label} | ${seconds(r.hydratedMs)} | ${seconds(r.tapMs)} | ${seconds(r.cartMs)} | ${r.taps} | ${seconds(r.loadMs)} | ${seconds(r.lcpMs)} | ${millis(r.tbtMs)} | ${shift(r.cls)} | ${r.performance ?? "–"} |`,
    );
  }

  mkdirSync(path.join(ROOT, "reports"), { recursive: true });
  writeFileSync(
    path.join(ROOT, "reports/lighthouse.json"),
    `${JSON.stringify({ date: new Date().toISOString(), chromium: CHROMIUM, runs: RUNS, results, phone }, null, 2)}\n`,
  );
  console.log("\nreports/lighthouse.json written.");
} finally {
  await browser?.close();
  chrome?.kill();
  await shop.stop();
}
