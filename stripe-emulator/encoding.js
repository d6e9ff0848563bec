// Stripe-style request encoding: form bodies and query strings with bracket notation
// (`items[0][price_data][recurring][interval]=week`, `expand[]=latest_invoice`).

/**
 * Parses `a[b][0][c]=x&a[b][0][d]=y&e[]=1&e[]=2` into nested objects and arrays.
 * Numeric and empty brackets build arrays; every leaf stays a string, as Stripe receives it.
 * @param {URLSearchParams | string} input
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
  return arraysFromIndexedObjects(root);
}

/** `a[b][0][]` -> ["a", "b", "0", ""] */
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
      node = node[segment];
    }
  }
}

/** Objects whose keys are exactly 0..n-1 become arrays (recursively). */
function arraysFromIndexedObjects(value) {
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value);
  for (const key of keys) value[key] = arraysFromIndexedObjects(value[key]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    const sorted = keys.map(Number).sort((a, b) => a - b);
    if (sorted.every((n, i) => n === i)) return sorted.map((n) => value[String(n)]);
  }
  return value;
}

/** Encodes a nested object the way stripe-node does (for tests and the browser script). */
export function encodeStripeParams(data, prefix = "") {
  const parts = [];
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

/** The `expand` parameter as a list of dotted paths, whatever its encoding. */
export function expandList(params) {
  const raw = params?.expand;
  if (raw === undefined) return [];
  if (Array.isArray(raw)) return raw.filter((v) => typeof v === "string" && v !== "");
  if (typeof raw === "string") return raw === "" ? [] : [raw];
  if (typeof raw === "object" && raw !== null) return Object.values(raw).filter((v) => typeof v === "string");
  return [];
}

/** Integer parameter or undefined; NaN-safe. */
export function intParam(value) {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isInteger(n) ? n : Number.NaN;
}

export function boolParam(value) {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return undefined;
}
