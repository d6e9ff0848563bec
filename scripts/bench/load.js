// @ts-check
// Drives the load of one measure from its own process (so that the load does not share an
// event loop with what it measures): autocannon, a warm-up then the measure, on one URL.
// The parent sends { url, connections, warmupSeconds, seconds, headers } and gets back
// { rps, p50, p99, errors, non2xx, requests }.
import { createRequire } from "node:module";
import { serveParent } from "./http.js";

/**
 * @typedef {{ url: string, connections: number, warmupSeconds: number, seconds: number, headers: Record<string, string> }} LoadInput
 * @typedef {{ rps: number, p50: number, p99: number, errors: number, non2xx: number, requests: number }} LoadResult
 * @typedef {{
 *   duration: number, errors: number, timeouts: number, non2xx: number,
 *   requests: { total: number }, latency: { p50: number, p99: number },
 * }} AutocannonResult
 */

/** autocannon ships no types: the part of its API used here. */
const autocannon = /** @type {(options: object) => Promise<AutocannonResult>} */ (createRequire(import.meta.url)("autocannon"));

/**
 * @param {LoadInput} input
 * @param {number} seconds
 */
function run(input, seconds) {
  return autocannon({ url: input.url, connections: input.connections, duration: seconds, headers: input.headers });
}

serveParent(
  /** @param {LoadInput} input @returns {Promise<LoadResult>} */
  async (input) => {
    if (input.warmupSeconds > 0) await run(input, input.warmupSeconds);
    const r = await run(input, input.seconds);
    return {
      rps: r.requests.total / r.duration,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      requests: r.requests.total,
    };
  },
);
