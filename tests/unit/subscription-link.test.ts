import { describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import {
  SUBSCRIPTION_LINK_KEY_PATTERN,
  checkSubscriptionLink,
  subscriptionLink,
  subscriptionLinkQuery,
  subscriptionPageUrl,
} from "~/services/subscription-link.server";

/** The private page's link: signed for one subscription, until a date. */

const params = (query: string) => new URLSearchParams(query);

describe("the link to a subscription's private page", () => {
  it("opens the page of its own subscription for 7 days, no more", () => {
    const now = new Date("2026-11-25T10:00:00Z");
    const link = subscriptionLink(12, now);
    expect(link.key).toMatch(SUBSCRIPTION_LINK_KEY_PATTERN);
    expect(link.expiresAt).toBe(Math.floor(now.getTime() / 1000) + 7 * 86_400);
    expect(checkSubscriptionLink(params(subscriptionLinkQuery(link)), new Date(now.getTime() + 8 * 86_400_000))).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(checkSubscriptionLink(params(subscriptionLinkQuery(link)), now)).toEqual({
      ok: true,
      id: 12,
      expiresAt: link.expiresAt,
    });
    const dayBefore = new Date(link.expiresAt * 1000 - 86_400_000);
    expect(checkSubscriptionLink(params(subscriptionLinkQuery(link)), dayBefore).ok).toBe(true);
    expect(checkSubscriptionLink(params(subscriptionLinkQuery(link)), new Date(link.expiresAt * 1000))).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("refuses another subscription's id, a later expiry or an altered key", () => {
    const link = subscriptionLink(12);
    expect(checkSubscriptionLink(params(`id=13&expire=${link.expiresAt}&cle=${link.key}`))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(checkSubscriptionLink(params(`id=12&expire=${link.expiresAt + 86_400}&cle=${link.key}`))).toEqual({
      ok: false,
      reason: "invalid",
    });
    const altered = (link.key[0] === "A" ? "B" : "A") + link.key.slice(1);
    expect(checkSubscriptionLink(params(`id=12&expire=${link.expiresAt}&cle=${altered}`))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(checkSubscriptionLink(params(`id=12&expire=${link.expiresAt}`))).toEqual({ ok: false, reason: "invalid" });
    expect(checkSubscriptionLink(params(`id=abc&expire=x&cle=${link.key}`))).toEqual({ ok: false, reason: "invalid" });
  });

  it("keeps working after the session secret is rotated (new,old)", () => {
    const link = subscriptionLink(7);
    const config = getConfig();
    const before = config.sessionSecrets;
    try {
      (config as { sessionSecrets: string[] }).sessionSecrets = ["a-brand-new-secret-of-enough-length", ...before];
      expect(checkSubscriptionLink(params(subscriptionLinkQuery(link))).ok).toBe(true);
      (config as { sessionSecrets: string[] }).sessionSecrets = ["a-brand-new-secret-of-enough-length"];
      expect(checkSubscriptionLink(params(subscriptionLinkQuery(link))).ok).toBe(false);
    } finally {
      (config as { sessionSecrets: string[] }).sessionSecrets = before;
    }
  });

  it("is an absolute URL on the shop's public address", () => {
    expect(subscriptionPageUrl(5)).toMatch(
      new RegExp(`^${getConfig().publicUrl}/mon-abonnement\\?id=5&expire=\\d+&cle=[A-Za-z0-9_-]{43}$`),
    );
  });
});
