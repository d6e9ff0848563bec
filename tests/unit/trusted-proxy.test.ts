import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getConfig } from "~/config.server";
import { loader as orderApi } from "~/routes/api.orders.$id";
import { LIMITS } from "~/services/limits.server";
import { fromAddress, getRequest, routeArgs } from "../helpers/requests";

/** This file's server runs behind one reverse proxy (read before the configuration is). */
vi.hoisted(() => {
  process.env.TRUST_PROXY = "1";
});

afterAll(() => {
  delete process.env.TRUST_PROXY;
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-05T10:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

const lookup = (id: string, forwardedFor: string) =>
  // The TCP peer is the proxy, the same for everyone.
  orderApi(routeArgs(getRequest(`/api/orders/${id}`, { "X-Forwarded-For": forwardedFor }), { id }, fromAddress("10.0.0.2")));

describe("TRUST_PROXY=1", () => {
  it("keys the limits on the right-most X-Forwarded-For address, the one the proxy saw", async () => {
    expect(getConfig().trustProxy).toBe(1);
    for (let i = 0; i < LIMITS.orderLookupMissesPerAddress.max; i++) {
      // What the client writes on the left changes nothing.
      expect((await lookup(String(999_100_000 + i), `198.18.0.${i}, 203.0.113.60`)).status).toBe(404);
    }
    expect((await lookup("999100099", "198.18.9.9, 203.0.113.60")).status).toBe(429);
    // Another client behind the same proxy is not affected.
    expect((await lookup("999100099", "203.0.113.61")).status).toBe(404);
  });
});
