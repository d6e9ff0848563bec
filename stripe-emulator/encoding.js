// @ts-check
// Stripe-style request encoding: form bodies and query strings with bracket notation
// (`items[0][price_data][recurring][interval]=week`, `expand[]=latest_invoice`).

/**
 * Parsed request parameters: nested objects and arrays whose leaves are strings, as Stripe
 * receives them. Left loose (`any`) because every handler reads its own fields from it.
 * @typedef {Record<string, any>} StripeParams
 */

/**
 * Parses `a[b][0][c]=x&a[b][0][d]=y&e[]=1&e[]=2` into nested objects and arrays.
 * Numeric and empty brackets build arrays; every leaf stays a string, as Stripe receives it.
 * @param {URLSearchParams | string} input
 * @returns {StripeParams}
 */
export function parseStripeParams(input) {
  const params = typeof input === "string" ? new URLSearchParams(input) : input;
  /** @type {Record<string, unknown>} */
  const root = {};
  for (const [rawKey, value] of params) {
    const path = splitKey(rawKey);
    if (path.length === 0) continue;
    assign(root, path, value);
  }
  return /** @type {StripeParams} */ (arraysFromIndexedObjects(root));
}

/**
 * `a[b][0][]` -> ["a", "b", "0", ""]
 * @param {string} key
 * @returns {string[]}
 */
function splitKey(key) {
  const first = key.indexOf("[");
  if (first === -1) return [key];
  const path = [key.slice(0, first)];
  const re = /\[([^\]]*)\]/g;
  let match;
  while ((match = re.exec(key.slice(first))) !== null) path.push(match[1]);
  return path;
}

const FORBIDDEN = new Set(["__proto__", "prototype", "constructor"]);

/**
 * @param {Record<string, unknown>} target
 * @param {string[]} path
 * @param {string} value
 */
function assign(target, path, value) {
  let node = target;
  for (let i = 0; i < path.length; i++) {
    let segment = path[i];
    if (FORBIDDEN.has(segment)) return;
    const last = i === path.length - 1;
    if (segment === "") {
      // `e[]=1`: append at the next free index.
      segment = String(Object.keys(node).length);
    }
    if (last) {
      node[segment] = value;
    } else {
      if (typeof node[segment] !== "object" || node[segment] === null) node[segment] = {};
      node = /** @type {Record<string, unknown>} */ (node[segment]);
    }
  }
}

/**
 * Objects whose keys are exactly 0..n-1 become arrays (recursively).
 * @param {unknown} value
 * @returns {unknown}
 */
function arraysFromIndexedObjects(value) {
  if (typeof value !== "object" || value === null) return value;
  const record = /** @type {Record<string, unknown>} */ (value);
  const keys = Object.keys(record);
  for (const key of keys) record[key] = arraysFromIndexedObjects(record[key]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    const sorted = keys.map(Number).sort((a, b) => a - b);
    if (sorted.every((n, i) => n === i)) return sorted.map((n) => record[String(n)]);
  }
  return record;
}

/**
 * Encodes a nested object the way stripe-node does (for tests and the browser script).
 * @param {unknown} data
 * @param {string} [prefix]
 * @returns {string}
 */
export function encodeStripeParams(data, prefix = "") {
  /** @type {string[]} */
  const parts = [];
  /** @type {(value: unknown, key: string) => void} */
  const walk = (value, key) => {
    if (value === undefined) return;
    if (value === null) {
      parts.push(`${encodeURIComponent(key)}=`);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${key}[${i}]`));
    } else if (typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, key ? `${key}[${k}]` : k);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  };
  walk(data, prefix);
  return parts.join("&");
}

/**
 * The `expand` parameter as a list of dotted paths, whatever its encoding.
 * @param {{ expand?: unknown } | null | undefined} params
 * @returns {string[]}
 */
export function expandList(params) {
  const raw = params?.expand;
  if (raw === undefined) return [];
  if (Array.isArray(raw)) return raw.filter((v) => typeof v === "string" && v !== "");
  if (typeof raw === "string") return raw === "" ? [] : [raw];
  if (typeof raw === "object" && raw !== null) return Object.values(raw).filter((v) => typeof v === "string");
  return [];
}

/**
 * Integer parameter or undefined; NaN-safe.
 * @param {unknown} value
 * @returns {number | undefined}
 */
export function intParam(value) {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isInteger(n) ? n : Number.NaN;
}

/**
 * @param {unknown} value
 * @returns {boolean | undefined}
 */
export function boolParam(value) {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return undefined;
}
