import type { StripeCardElementOptions } from "@stripe/stripe-js";

/** The card field of every card payment of the shop (the checkout, a renewal to pay): the shop's type and colours. */
export const CARD_OPTIONS: StripeCardElementOptions = {
  hidePostalCode: true,
  style: {
    base: {
      fontSize: "16px",
      color: "#2a1f2d",
      fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
      "::placeholder": { color: "#8a7d8c" },
    },
    invalid: { color: "#8a3146", iconColor: "#8a3146" },
  },
};
