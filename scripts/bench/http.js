// @ts-check
// Small HTTP helpers of the speed measures: raw responses (bytes as sent, still compressed)
// and the child processes that serve or drive the load.
import { fork } from "node:child_process";
import http from "node:http";
import { gzipSync } from "node:zlib";

/** What a browser asks for: the shop answers with Brotli (or gzip) when it compresses. */
export const BROWSER_ENCODING = "br, gzip";

/**
 * @typedef {{ status: number, headers: http.IncomingHttpHeaders, body: Buffer }} RawResponse
 */

/**
 * GET url, the body kept as sent (not decompressed).
 * @param {string} url
 * @param {Record<string, string>} [headers]
 * @returns {Promise<RawResponse>}
 */
export function getRaw(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/**
 * The JavaScript a page ships: its scripts and modulepreloads under /assets/ (what the
 * browser downloads before the page is interactive), each measured gzip-compressed.
 * @param {string} origin
 * @param {string} html
 * @returns {Promise<{ files: number, gzipBytes: number }>}
 */
export async function shippedJs(origin, html) {
  const srcs = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  let gzipBytes = 0;
  for (const src of srcs) {
    const res = await getRaw(origin + src, { "accept-encoding": "identity" });
    if (res.status !== 200) throw new Error(`${src}: HTTP ${res.status}`);
    gzipBytes += gzipSync(res.body).length;
  }
  return { files: srcs.size, gzipBytes };
}

/**
 * Runs a script of this folder in its own Node process and resolves with the first message it
 * sends back ({ error } makes it reject). `keep` leaves it running (a server), to be killed by
 * the caller.
 * @template T
 * @param {string} script file name in scripts/bench/
 * @param {unknown} input sent to the child once it has started
 * @param {(progress: unknown) => void | Promise<void>} [onProgress] gets the child's { progress } messages
 *   (e.g. the start and end of its measure), then answers it { progressSeen: true }
 * @returns {Promise<{ result: T, kill(): Promise<void> }>}
 */
export function runChild(script, input, onProgress) {
  const child = fork(new URL(script, import.meta.url), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => child.once("exit", () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.on("message", async (message) => {
      const m = /** @type {{ error?: string, result?: T, progress?: unknown }} */ (message);
      if ("progress" in m) {
        await onProgress?.(m.progress);
        if (child.connected) child.send({ progressSeen: true });
        return;
      }
      if (m.error) void kill().then(() => reject(new Error(m.error)));
      else resolve({ result: /** @type {T} */ (m.result), kill });
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) without an answer`)));
    child.send(/** @type {import("node:child_process").Serializable} */ (input));
  });
}

/**
 * In a child: tells the parent where it is (runChild's onProgress), and waits until it has seen it.
 * @param {unknown} progress
 * @returns {Promise<void>}
 */
export function tellParent(progress) {
  return new Promise((resolve) => {
    /** @param {any} message */
    const onMessage = (message) => {
      if (!message?.progressSeen) return;
      process.off("message", onMessage);
      resolve();
    };
    process.on("message", onMessage);
    process.send?.({ progress });
  });
}

/**
 * In a child: waits for the parent's input, answers with what `work` returns (or the error).
 * @template I, T
 * @param {(input: I) => Promise<T>} work
 */
export function serveParent(work) {
  process.once("message", (input) => {
    work(/** @type {I} */ (input)).then(
      (result) => process.send?.({ result }),
      (error) => process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}
