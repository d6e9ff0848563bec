import { isIP } from "node:net";
import { getConfig } from "~/config.server";
import { log } from "~/log.server";

/**
 * The client's address: the key of every per-address rate limit.
 *
 * Contract with the HTTP server (server/index.js): Remix's load context carries the address
 * of the TCP peer as `clientAddress`, a string, e.g. with @remix-run/express:
 *
 *   app.all("*", createRequestHandler({ build, getLoadContext: (req) => ({ clientAddress: req.socket.remoteAddress }) }));
 *
 * and route modules pass their `context` on: `clientAddress(request, context)`. Nothing else
 * is needed from the server; anything not a non-empty string is ignored.
 *
 * - TRUST_PROXY=0 (default: the server faces the clients): the peer's address. Headers are
 *   ignored, so a client cannot pick its own address by sending X-Forwarded-For.
 * - TRUST_PROXY=N > 0 (N reverse proxies in front, each appending the address it saw to
 *   X-Forwarded-For): the N-th address from the right of X-Forwarded-For, the one the
 *   outermost of our proxies saw; what the client wrote on the left is ignored. A header
 *   with fewer than N addresses did not come through our proxies: the peer's address then.
 *
 * Without an address from the server (`remix-serve` gives no load context, unit tests without
 * one) every client shares the key "unknown".
 *
 * Addresses are normalised: IPv4-mapped IPv6 becomes IPv4, and IPv6 addresses are keyed by
 * their /64 network, since one subscriber usually holds a whole /64 and could otherwise
 * rotate through it to escape the limits.
 */

export const UNKNOWN_CLIENT = "unknown";

let warned = false;

/** The request's client address (see above); `context` is the route's load context. */
export function clientAddress(request: Request, context: unknown): string {
  const address = resolveClientAddress(request, peerAddress(context), getConfig().trustProxy);
  if (address === UNKNOWN_CLIENT && !warned && process.env.NODE_ENV === "production") {
    warned = true;
    log.warn("Client address unknown (no clientAddress in the load context): every client shares one rate-limit key.");
  }
  return address;
}

/** The address the server put in the load context, if any. */
function peerAddress(context: unknown): string | undefined {
  if (typeof context !== "object" || context === null || !("clientAddress" in context)) return undefined;
  const value = (context as { clientAddress?: unknown }).clientAddress;
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** The rule above, given the peer's address and the number of trusted proxies. */
export function resolveClientAddress(request: Request, peer: string | undefined, trustProxy: number): string {
  if (trustProxy > 0) {
    const hops = (request.headers.get("X-Forwarded-For") ?? "")
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
    if (hops.length >= trustProxy) return addressKey(hops[hops.length - trustProxy]);
  }
  return peer ? addressKey(peer) : UNKNOWN_CLIENT;
}

/** An address as a rate-limit key: IPv4 as is, IPv6 as its /64 network, ports and zones removed. */
export function addressKey(raw: string): string {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  value = value.replace(/%.*$/, "");
  const version = isIP(value);
  if (version === 4) return value;
  if (version === 6) {
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
    return mapped ? mapped[1] : ipv6Network64(value);
  }
  // Not an address (a proxy's obfuscated identifier...): a key all the same, bounded.
  return value.slice(0, 100) || UNKNOWN_CLIENT;
}

/** '2001:db8:1:2:3:4:5:6' -> '2001:db8:1:2::/64'. */
function ipv6Network64(address: string): string {
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])));
  const [head, tail] = address.toLowerCase().split("::");
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
