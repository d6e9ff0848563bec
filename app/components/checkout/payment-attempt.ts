/**
 * The subscription attempt kept in the browser session (spec sections 3, 4 and 9):
 * - a pending marker younger than 30 s blocks a new attempt ('Traitement en cours');
 * - a stored attempt with a client secret younger than 5 minutes is reused, older ones are discarded;
 * - the stored attempt is removed on success and on error.
 * One entry per order, so another order never reuses a client secret.
 */

export const PENDING_BLOCK_MS = 30_000;
export const ATTEMPT_REUSE_MS = 5 * 60_000;

export type StoredSubscriptionAttempt = {
  clientSecret: string;
  subscriptionId: string;
  setupFee: string;
  timestamp: number;
  status: string;
  paymentIntentStatus: string | null;
};

type PendingMarker = { pending: true; attemptId: string; timestamp: number };

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export type AttemptState =
  { kind: "none" } | { kind: "pending"; attemptId: string } | { kind: "reusable"; attempt: StoredSubscriptionAttempt };

const key = (orderId: number) => `shop:subscription-attempt:${orderId}`;

function sessionStore(): StorageLike | null {
  try {
    return typeof window !== "undefined" ? window.sessionStorage : null;
  } catch {
    return null; // storage disabled: attempts are simply not remembered
  }
}

function read(orderId: number, storage: StorageLike | null): unknown {
  try {
    const raw = storage?.getItem(key(orderId));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function write(orderId: number, value: unknown, storage: StorageLike | null) {
  try {
    storage?.setItem(key(orderId), JSON.stringify(value));
  } catch {
    // quota or privacy mode: nothing to do
  }
}

export function clearSubscriptionAttempt(orderId: number, storage: StorageLike | null = sessionStore()) {
  try {
    storage?.removeItem(key(orderId));
  } catch {
    // ignore
  }
}

/** What the stored attempt allows now; expired entries are discarded. */
export function readSubscriptionAttempt(
  orderId: number,
  now = Date.now(),
  storage: StorageLike | null = sessionStore(),
): AttemptState {
  const value = read(orderId, storage) as Partial<PendingMarker & StoredSubscriptionAttempt> | null;
  if (!value || typeof value !== "object" || typeof value.timestamp !== "number") {
    if (value) clearSubscriptionAttempt(orderId, storage);
    return { kind: "none" };
  }
  const age = now - value.timestamp;
  if (value.pending === true) {
    if (age >= 0 && age < PENDING_BLOCK_MS) return { kind: "pending", attemptId: String(value.attemptId ?? "") };
    clearSubscriptionAttempt(orderId, storage);
    return { kind: "none" };
  }
  if (
    typeof value.clientSecret === "string" &&
    value.clientSecret &&
    typeof value.subscriptionId === "string" &&
    age >= 0 &&
    age < ATTEMPT_REUSE_MS
  ) {
    return {
      kind: "reusable",
      attempt: {
        clientSecret: value.clientSecret,
        subscriptionId: value.subscriptionId,
        setupFee: String(value.setupFee ?? ""),
        timestamp: value.timestamp,
        status: String(value.status ?? ""),
        paymentIntentStatus: value.paymentIntentStatus ?? null,
      },
    };
  }
  clearSubscriptionAttempt(orderId, storage);
  return { kind: "none" };
}

export function markSubscriptionPending(orderId: number, now = Date.now(), storage: StorageLike | null = sessionStore()): string {
  const attemptId = `${now.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  write(orderId, { pending: true, attemptId, timestamp: now } satisfies PendingMarker, storage);
  return attemptId;
}

export function saveSubscriptionAttempt(
  orderId: number,
  attempt: StoredSubscriptionAttempt,
  storage: StorageLike | null = sessionStore(),
) {
  write(orderId, attempt, storage);
}
