import { describe, expect, it } from "vitest";
import { cardRequiresAuthentication } from "../../stripe-emulator/core.js";

/** 3-D Secure in the emulator, as Stripe's test mode runs its authentication test cards. */

describe("which payments the bank asks to authenticate", () => {
  it("asks for 3155 with the customer present, and not for a renewal once the card was set up", () => {
    expect(cardRequiresAuthentication("4000002500003155")).toBe(true);
    expect(cardRequiresAuthentication("4000002500003155", { offSession: true, setUpForOffSession: true })).toBe(false);
    expect(cardRequiresAuthentication("4000002500003155", { offSession: true, setUpForOffSession: false })).toBe(true);
  });

  it("asks for 3184 every time, renewals included, and for 3178", () => {
    expect(cardRequiresAuthentication("4000002760003184")).toBe(true);
    expect(cardRequiresAuthentication("4000002760003184", { offSession: true, setUpForOffSession: true })).toBe(true);
    expect(cardRequiresAuthentication("4000008260003178")).toBe(true);
  });

  it("never asks for the other test cards", () => {
    for (const number of ["4242424242424242", "4000000000000002", "4000000000000341"]) {
      expect(cardRequiresAuthentication(number)).toBe(false);
      expect(cardRequiresAuthentication(number, { offSession: true })).toBe(false);
    }
  });
});
