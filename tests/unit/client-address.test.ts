import { describe, expect, it } from "vitest";
import { addressKey, clientAddress, resolveClientAddress, UNKNOWN_CLIENT } from "~/http/client-address.server";
import { fromAddress, getRequest } from "../helpers/requests";

const withForwardedFor = (value: string) => getRequest("/", { "X-Forwarded-For": value, "X-Real-IP": "198.18.0.1" });

describe("client address (TRUST_PROXY=0, the default)", () => {
  it("is the TCP peer's address the server puts in the load context; client headers are ignored", () => {
    expect(clientAddress(withForwardedFor("203.0.113.1"), fromAddress("192.0.2.10"))).toBe("192.0.2.10");
    expect(clientAddress(withForwardedFor("203.0.113.2, 203.0.113.3"), fromAddress("::ffff:192.0.2.10"))).toBe("192.0.2.10");
  });

  it("without an address from the server, every client shares one key", () => {
    expect(clientAddress(withForwardedFor("203.0.113.1"), {})).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(getRequest("/"), undefined)).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(getRequest("/"), { clientAddress: "" })).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(getRequest("/"), { clientAddress: 42 })).toBe(UNKNOWN_CLIENT);
  });
});

describe("client address behind N trusted proxies", () => {
  it("takes the N-th address from the right of X-Forwarded-For, whatever the client wrote on its left", () => {
    expect(resolveClientAddress(withForwardedFor("6.6.6.6, 203.0.113.7"), "10.0.0.2", 1)).toBe("203.0.113.7");
    expect(resolveClientAddress(withForwardedFor("6.6.6.6,203.0.113.7, 10.0.0.9"), "10.0.0.2", 2)).toBe("203.0.113.7");
    // Two headers are one list.
    const twice = new Request("http://localhost/", {
      headers: [
        ["X-Forwarded-For", "6.6.6.6"],
        ["X-Forwarded-For", "203.0.113.8"],
      ],
    });
    expect(resolveClientAddress(twice, "10.0.0.2", 1)).toBe("203.0.113.8");
  });

  it("falls back to the peer when the header did not come through all the proxies", () => {
    expect(resolveClientAddress(getRequest("/"), "10.0.0.2", 1)).toBe("10.0.0.2");
    expect(resolveClientAddress(withForwardedFor("203.0.113.7"), "10.0.0.2", 2)).toBe("10.0.0.2");
    expect(resolveClientAddress(getRequest("/"), undefined, 1)).toBe(UNKNOWN_CLIENT);
  });
});

describe("addressKey", () => {
  it.each([
    ["203.0.113.5", "203.0.113.5"],
    [" 203.0.113.5:8080 ", "203.0.113.5"],
    ["::ffff:203.0.113.5", "203.0.113.5"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff::1", "2001:db8:1:2::/64"],
    ["[2001:db8::1]:443", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["64:ff9b::192.0.2.33", "64:ff9b:0:0::/64"],
    ["_hidden", "_hidden"],
  ])("%s -> %s", (raw, key) => {
    expect(addressKey(raw)).toBe(key);
  });
});
