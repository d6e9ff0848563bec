// @ts-check
// A shopper on a phone, in Chromium driven by Playwright (npm run lighthouse): the network and
// the processor slowed down with the Chrome DevTools Protocol (Network.emulateNetworkConditions,
// Emulation.setCPUThrottlingRate), a new browser context for every run (empty cache, no cookie,
// new connections). Two measures of a page:
// - loadRun: the page opened and left alone: first paints, LCP, long tasks (TBT), layout shifts
//   (CLS), the load event and the moment it is hydrated (html[data-hydrated]);
// - tapRun: the shopper taps « Commander » as soon as it shows, until the cart shows. On the
//   landing page « Commander maintenant » is a link to the product page, where « Commander »
//   (the order form, posted to /panier) is then tapped as soon as it shows. Once the page has
//   hydrated the form opens the cart drawer (role=dialog, data-testid=cart-drawer); before,
//   it is a plain form post and the browser goes to the /panier page.
// Every time is counted from the start of the first navigation (its performance.timeOrigin),
// pages opened later included, in milliseconds.
import { chromium } from "@playwright/test";

/**
 * @typedef {{
 *   id: string,
 *   label: string,
 *   latencyMs: number,
 *   downloadKbps: number,
 *   uploadKbps: number,
 *   cpuSlowdown: number,
 *   width: number,
 *   height: number,
 *   deviceScaleFactor: number,
 *   userAgent: string,
 * }} PhoneProfile
 * @typedef {{ name: string, at: number, doc: number, path: string, drawer?: boolean, label?: string }} PageRecord
 * @typedef {{
 *   fcpMs: number | null,
 *   lcpMs: number | null,
 *   tbtMs: number | null,
 *   cls: number | null,
 *   loadMs: number | null,
 *   hydratedMs: number | null,
 * }} LoadResult
 * @typedef {{
 *   outcome: string,
 *   orderButtonMs: number | null,
 *   cartMs: number | null,
 *   taps: { label: string, atMs: number, path: string }[],
 *   hydratedBeforeTapMs: number | null,
 * }} TapResult
 */

/** What the pages keep in sessionStorage (it lasts across the page changes of the tab); pageProbe spells it out. */
const RECORDS_KEY = "__shopper_records";

/**
 * Runs in every document of the measured tab before the page's own scripts: observers of the
 * paints, long tasks and layout shifts (window.__shopperProbe), and records of what the shopper
 * sees, in sessionStorage: the click (`tap`), the page hydrated (`hydrated`), the product's
 * order button painted (`order-button`), a line of the cart painted (`cart`, in the drawer or
 * not). What is "painted" is checked in the first animation frame after the change of the
 * page: frames do not run while the first paint is held (blocking=render).
 */
function pageProbe() {
  if (!/^https?:$/.test(location.protocol)) return;
  const origin = performance.timeOrigin;
  /** @param {string} name @param {number} at @param {Record<string, unknown>} [extra] */
  const record = (name, at, extra = {}) => {
    const list = JSON.parse(sessionStorage.getItem("__shopper_records") ?? "[]");
    list.push({ name, at: origin + at, doc: origin, path: location.pathname, ...extra });
    sessionStorage.setItem("__shopper_records", JSON.stringify(list));
  };
  const probe = {
    fcp: /** @type {number | null} */ (null),
    lcp: /** @type {number | null} */ (null),
    hydrated: /** @type {number | null} */ (null),
    /** @type {[number, number][]} */
    longTasks: [],
    /** @type {[number, number][]} */
    shifts: [],
  };
  /** @type {any} */ (window).__shopperProbe = probe;
  /** @param {string} type @param {(entry: any) => void} onEntry */
  const observe = (type, onEntry) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true });
    } catch {
      // An entry type this browser does not know: its figure stays null.
    }
  };
  observe("paint", (e) => {
    if (e.name === "first-contentful-paint") probe.fcp = e.startTime;
  });
  observe("largest-contentful-paint", (e) => (probe.lcp = e.startTime));
  observe("longtask", (e) => probe.longTasks.push([e.startTime, e.duration]));
  observe("layout-shift", (e) => {
    if (!e.hadRecentInput) probe.shifts.push([e.startTime, e.value]);
  });
  addEventListener(
    "click",
    (event) => {
      const target = /** @type {Element | null} */ (event.target);
      record("tap", event.timeStamp, { label: (target?.closest("a, button")?.textContent ?? "").trim() });
    },
    { capture: true },
  );
  /** @param {Element | null} element */
  const painted = (element) => {
    const box = element?.getBoundingClientRect();
    return !!box && box.width > 0 && box.height > 0;
  };
  let orderButton = false;
  let cart = false;
  let frameAsked = false;
  const check = () => {
    frameAsked = false;
    const now = performance.now();
    if (!orderButton && painted(document.querySelector("#packs button[type=submit]"))) {
      orderButton = true;
      record("order-button", now);
    }
    const line = document.querySelector("[data-testid=cart-line]");
    if (!cart && painted(line)) {
      cart = true;
      record("cart", now, { drawer: !!line?.closest("[role=dialog]") });
    }
  };
  new MutationObserver(() => {
    if (probe.hydrated === null && document.documentElement?.hasAttribute("data-hydrated")) {
      probe.hydrated = performance.now();
      record("hydrated", probe.hydrated);
    }
    if (!frameAsked) {
      frameAsked = true;
      requestAnimationFrame(check);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-hydrated"] });
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Debian's Chromium (or another one) under Playwright, with its own background traffic off.
 * @param {string} executablePath
 */
export function launchPhoneBrowser(executablePath) {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/**
 * A new context (empty cache) and tab with the profile's screen, network and processor; none
 * slowed down without a profile (the warm-up).
 * @param {import("@playwright/test").Browser} browser
 * @param {PhoneProfile | null} profile
 */
async function phoneTab(browser, profile) {
  const context = await browser.newContext({
    viewport: profile ? { width: profile.width, height: profile.height } : { width: 390, height: 844 },
    deviceScaleFactor: profile?.deviceScaleFactor ?? 1,
    isMobile: true,
    hasTouch: true,
    ...(profile ? { userAgent: profile.userAgent } : {}),
    serviceWorkers: "block",
  });
  await context.addInitScript(pageProbe);
  const page = await context.newPage();
  if (profile) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: profile.latencyMs,
      downloadThroughput: (profile.downloadKbps * 1024) / 8,
      uploadThroughput: (profile.uploadKbps * 1024) / 8,
      connectionType: "cellular4g",
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpuSlowdown });
  }
  return { context, page };
}

/**
 * The largest burst of layout shifts (shifts less than 1 s apart, 5 s at most), as Lighthouse
 * and the Web Vitals count CLS.
 * @param {[number, number][]} shifts [startTime, value]
 */
function cumulativeLayoutShift(shifts) {
  let max = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const [at, value] of shifts) {
    if (at - last > 1000 || at - first > 5000) {
      first = at;
      sum = 0;
    }
    last = at;
    sum += value;
    max = Math.max(max, sum);
  }
  return max;
}

/**
 * The page opened and left alone until it has hydrated, loaded, and its network has been quiet
 * for 0.5 s, then one more second.
 * @param {import("@playwright/test").Browser} browser
 * @param {string} url
 * @param {PhoneProfile | null} profile
 * @returns {Promise<LoadResult>}
 */
export async function loadRun(browser, url, profile) {
  const { context, page } = await phoneTab(browser, profile);
  try {
    await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    await page
      .locator("html[data-hydrated]")
      .waitFor({ state: "attached", timeout: 60_000 })
      .catch(() => {});
    await page.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => {});
    await sleep(1000);
    const probe = await page.evaluate(() => {
      const navigation = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType("navigation")[0]);
      return { .../** @type {any} */ (window).__shopperProbe, load: navigation?.loadEventStart ?? null };
    });
    const fcp = /** @type {number | null} */ (probe.fcp);
    const longTasks = /** @type {[number, number][]} */ (probe.longTasks);
    return {
      fcpMs: fcp,
      lcpMs: probe.lcp,
      // Lighthouse counts from FCP to the page's quiet time; here until the end of the run.
      tbtMs:
        fcp === null
          ? null
          : longTasks.filter(([at]) => at >= fcp).reduce((n, [, duration]) => n + Math.max(0, duration - 50), 0),
      cls: cumulativeLayoutShift(probe.shifts),
      loadMs: probe.load || null,
      hydratedMs: probe.hydrated,
    };
  } finally {
    await context.close();
  }
}

/**
 * The shopper taps « Commander » as soon as it shows (Playwright's tap waits until it is
 * visible, still, and the one element under the finger), on the landing page « Commander
 * maintenant » first, until a line of the cart shows: in the drawer, or on the /panier page.
 * @param {import("@playwright/test").Browser} browser
 * @param {string} url
 * @param {PhoneProfile | null} profile
 * @returns {Promise<TapResult>}
 */
export async function tapRun(browser, url, profile) {
  const { context, page } = await phoneTab(browser, profile);
  try {
    let outcome = "";
    try {
      await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
      if (new URL(url).pathname === "/") {
        await page.getByRole("main").getByRole("link", { name: "Commander maintenant" }).first().tap({ timeout: 60_000 });
      }
      await page.getByRole("button", { name: "Commander", exact: true }).tap({ timeout: 60_000 });
      await page.waitForFunction((key) => (sessionStorage.getItem(key) ?? "").includes('"name":"cart"'), RECORDS_KEY, {
        timeout: 60_000,
        polling: 100,
      });
    } catch (error) {
      outcome = `no cart: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
    }
    /** @type {PageRecord[]} */
    const records = await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "[]"), RECORDS_KEY).catch(() => []);
    const start = Math.min(...records.map((r) => r.doc));
    const taps = records.filter((r) => r.name === "tap");
    const cart = records.find((r) => r.name === "cart");
    const orderButton = records.find((r) => r.name === "order-button");
    // Was the page of the last tap (the order form) hydrated when it was tapped?
    const lastTap = taps[taps.length - 1];
    const hydrated = records.find((r) => r.name === "hydrated" && lastTap && r.doc === lastTap.doc && r.at <= lastTap.at);
    if (!outcome && cart && taps.length > 0) {
      /** @type {string[]} */
      const steps = [];
      // The landing page's link: the product page in the same document (client-side) or a new one.
      for (let i = 0; i + 1 < taps.length; i++) {
        const next = taps[i + 1];
        steps.push(`${next.doc === taps[i].doc ? "client nav" : "full page"} to ${next.path}`);
      }
      const last = taps[taps.length - 1];
      steps.push(cart.doc === last.doc && cart.drawer ? "drawer" : `full page to ${cart.path}`);
      outcome = steps.join(", ");
    }
    return {
      outcome: outcome || "no cart",
      // When the product page's « Commander » was first painted (the tap follows once Playwright sees it still).
      orderButtonMs: orderButton ? orderButton.at - start : null,
      cartMs: cart ? cart.at - start : null,
      taps: taps.map((t) => ({ label: t.label ?? "", atMs: t.at - start, path: t.path })),
      hydratedBeforeTapMs: hydrated ? hydrated.at - start : null,
    };
  } finally {
    await context.close();
  }
}
