import { randomBytes, scrypt, scryptSync, timingSafeEqual } from "node:crypto";
import { ShopError } from "./shop-error";

// scrypt with N=2^15, r=8, p=1 (OWASP's recommended minimum), 64-byte key.
const N = 32768;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const MAX_MEM = 64 * 1024 * 1024;

/**
 * At most MAX_CONCURRENT_HASHES scrypt derivations run at once: each holds one of libuv's four
 * threads (file reads, compression...) for tens of milliseconds, so a burst of sign-ins would
 * otherwise slow every other request. Others wait in line, in order; past MAX_WAITING_HASHES
 * waiting, a new one is refused at once (HashingBusyError, a 503 "réessayez").
 */
export const MAX_CONCURRENT_HASHES = 2;
export const MAX_WAITING_HASHES = 32;

export class HashingBusyError extends ShopError {
  constructor() {
    super(503, "busy", "Le serveur est très sollicité. Réessayez dans quelques secondes.", { retryAfterSeconds: 5 });
    this.name = "HashingBusyError";
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(task: () => Promise<T>): Promise<T> {
  if (running < MAX_CONCURRENT_HASHES) running++;
  else if (waiting.length >= MAX_WAITING_HASHES) throw new HashingBusyError();
  else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over, `running` unchanged
  try {
    return await task();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, n = N, r = R, p = P): Promise<Buffer> {
  return withHashSlot(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEM }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const [algo, n, r, p, salt, key] = stored.split("$");
  if (algo !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Synchronous variant for the seed, which runs once at start-up. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAX_MEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}
