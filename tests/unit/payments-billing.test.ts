import { describe, expect, it } from "vitest";
import {
  ATTEMPT_REUSE_MS,
  clearSubscriptionAttempt,
  markSubscriptionPending,
  PENDING_BLOCK_MS,
  readSubscriptionAttempt,
  saveSubscriptionAttempt,
} from "~/components/checkout/payment-attempt";
import { splitFullName } from "~/lib/names";
import { billingErrors, billingSchema, initialBilling } from "~/schemas/billing";
import { cardErrorNotice, confirmationErrorNotice } from "~/lib/payment-messages";

const valid = { firstName: "Camille", lastName: "Martin", address: "12 rue des Lilas", city: "Paris", postalCode: "75011" };

describe("billing address of the payment step", () => {
  it("gives the spec's French message for each missing field", () => {
    expect(billingErrors({ firstName: "", lastName: " ", address: "", city: "", postalCode: "" })).toEqual({
      firstName: "Le prénom est requis",
      lastName: "Le nom est requis",
      address: "L'adresse est requise",
      city: "La ville est requise",
      postalCode: "Le code postal est requis",
    });
  });

  it("wants exactly 5 digits in the postal code, and the country is France", () => {
    for (const postalCode of ["7501", "750111", "75O11", "75 01"]) {
      expect(billingErrors({ ...valid, postalCode })).toEqual({ postalCode: "Le code postal doit contenir 5 chiffres" });
    }
    expect(billingErrors(valid)).toBeNull();
    expect(billingSchema.parse(valid).country).toBe("FR");
    expect(billingSchema.safeParse({ ...valid, country: "BE" }).success).toBe(false);
  });

  it("is prefilled from the delivery details, or from the customer name split at the first space", () => {
    expect(splitFullName("Marie Claire  Dupont")).toEqual({ firstName: "Marie", lastName: "Claire Dupont" });
    expect(splitFullName("Cher")).toEqual({ firstName: "Cher", lastName: "" });
    expect(
      initialBilling(
        { firstName: "", lastName: "", address: "1 rue A", postalCode: "75 011", city: "Paris" },
        "Marie Claire Dupont",
      ),
    ).toEqual({
      firstName: "Marie",
      lastName: "Claire Dupont",
      address: "1 rue A",
      postalCode: "75011",
      city: "Paris",
    });
    expect(initialBilling(valid, "Autre Nom")).toEqual(valid);
  });
});

describe("payment error messages", () => {
  it("names the card problem by its code", () => {
    expect(confirmationErrorNotice({ type: "card_error", code: "incorrect_zip" }).title).toBe("Code postal incorrect");
    expect(confirmationErrorNotice({ type: "card_error", code: "incorrect_cvc" }).title).toBe("Code CVC incorrect");
    expect(confirmationErrorNotice({ type: "card_error", code: "card_declined" }).title).toBe("Carte refusée");
    expect(confirmationErrorNotice({ type: "card_error", code: "expired_card", message: "Votre carte a expiré." })).toEqual({
      title: "Erreur de carte",
      description: "Votre carte a expiré.",
    });
    expect(confirmationErrorNotice({ type: "validation_error", code: "incomplete_number" })).toEqual({
      title: "Erreur de carte",
      description: "Veuillez vérifier vos informations de carte.",
    });
    expect(confirmationErrorNotice({ type: "api_connection_error", message: "Réseau indisponible" })).toEqual({
      title: "Erreur de paiement",
      description: "Réseau indisponible",
    });
    expect(confirmationErrorNotice(undefined)).toEqual({
      title: "Erreur de paiement",
      description: "Une erreur est survenue lors du paiement. Veuillez réessayer.",
    });
    expect(cardErrorNotice({ message: "Votre numéro de carte est invalide." })).toEqual({
      title: "Erreur de carte",
      description: "Votre numéro de carte est invalide.",
    });
  });
});

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    size: () => map.size,
  };
}

describe("subscription attempt kept in the browser session", () => {
  const attempt = {
    clientSecret: "pi_123_secret_abc",
    subscriptionId: "sub_123",
    setupFee: "25.90",
    status: "incomplete",
    paymentIntentStatus: "requires_payment_method",
  };

  it("blocks a new attempt while a pending marker is younger than 30 seconds", () => {
    const storage = memoryStorage();
    const t0 = 1_000_000;
    markSubscriptionPending(42, t0, storage);
    expect(readSubscriptionAttempt(42, t0 + PENDING_BLOCK_MS - 1, storage).kind).toBe("pending");
    // Another order is not blocked.
    expect(readSubscriptionAttempt(43, t0, storage).kind).toBe("none");
    expect(readSubscriptionAttempt(42, t0 + PENDING_BLOCK_MS, storage).kind).toBe("none");
    expect(storage.size()).toBe(0);
  });

  it("reuses a client secret younger than 5 minutes and discards older ones", () => {
    const storage = memoryStorage();
    const t0 = 2_000_000;
    saveSubscriptionAttempt(42, { ...attempt, timestamp: t0 }, storage);
    expect(readSubscriptionAttempt(42, t0 + ATTEMPT_REUSE_MS - 1, storage)).toEqual({
      kind: "reusable",
      attempt: { ...attempt, timestamp: t0 },
    });
    expect(readSubscriptionAttempt(42, t0 + ATTEMPT_REUSE_MS, storage).kind).toBe("none");
    expect(storage.size()).toBe(0);
  });

  it("is removed on demand and survives garbage", () => {
    const storage = memoryStorage();
    saveSubscriptionAttempt(42, { ...attempt, timestamp: Date.now() }, storage);
    clearSubscriptionAttempt(42, storage);
    expect(readSubscriptionAttempt(42, Date.now(), storage).kind).toBe("none");
    storage.setItem("shop:subscription-attempt:42", "{not json");
    expect(readSubscriptionAttempt(42, Date.now(), storage).kind).toBe("none");
    expect(readSubscriptionAttempt(42, Date.now(), null).kind).toBe("none");
  });
});
