import { CardElement } from "@stripe/react-stripe-js";
import type { StripeCardElementChangeEvent, StripeElements } from "@stripe/stripe-js";
import { type Dispatch, type SetStateAction, useId, useState } from "react";
import { CARD_OPTIONS } from "./card-options";

/**
 * The card field of every card form of the shop: the checkout's payment, a renewal to pay and
 * « Changer de carte ». Stripe's card element in the shop's frame, its French title and line,
 * the « Chargement du champ de carte... » placeholder until Stripe.js has drawn it, the card's
 * own error under it, and in demo mode the test cards to type. The form keeps its state
 * (`useCardState`) to enable its button.
 */

export type CardState = { complete: boolean; error: string | null; ready: boolean };

/** The state of a card field: complete, its error, drawn. */
export function useCardState() {
  return useState<CardState>({ complete: false, error: null, ready: false });
}

/** The card typed in the form's CardField, for Stripe.js (null before Stripe.js has drawn it). */
export function cardElementOf(elements: StripeElements | null | undefined) {
  return elements?.getElement(CardElement) ?? null;
}

const PURPOSE = {
  payment: {
    title: "Carte bancaire",
    secured: "Paiement sécurisé par Stripe.",
    demo: "Mode démo, aucun débit réel : carte 4242 4242 4242 4242, une date future et un CVC quelconque.",
  },
  setup: {
    title: "Nouvelle carte bancaire",
    secured: "Enregistrement sécurisé par Stripe.",
    demo: "Mode démo : carte 4242 4242 4242 4242, ou 4000 0025 0000 3155 pour une authentification 3-D Secure.",
  },
} as const;

export function CardField({
  purpose,
  demo,
  card,
  setCard,
  onEdit,
}: {
  /** A payment (checkout, renewal) or a card saved for later (« Changer de carte »). */
  purpose: keyof typeof PURPOSE;
  demo: boolean;
  card: CardState;
  setCard: Dispatch<SetStateAction<CardState>>;
  /** The card is being typed or changed: a form clears its last failure here. */
  onEdit?: () => void;
}) {
  const labelId = `${useId()}-card-label`;
  const texts = PURPOSE[purpose];

  function onChange(event: StripeCardElementChangeEvent) {
    setCard((c) => ({ ...c, complete: event.complete, error: event.error?.message ?? null }));
    onEdit?.();
  }

  return (
    <div role="group" aria-labelledby={labelId}>
      <p id={labelId} className="text-base font-semibold text-ink">
        {texts.title}
      </p>
      <p className="mt-1 text-sm text-ink-soft">Visa, Mastercard et American Express acceptées. {texts.secured}</p>
      <div className="mt-3 rounded-lg border border-ink/15 bg-white p-3" data-testid="card-field" aria-busy={!card.ready}>
        {card.ready ? null : <p className="text-sm text-ink-soft">Chargement du champ de carte...</p>}
        <CardElement options={CARD_OPTIONS} onChange={onChange} onReady={() => setCard((c) => ({ ...c, ready: true }))} />
      </div>
      <p className="min-h-5 pt-1 text-sm text-rose-700" aria-live="polite" data-testid="card-error">
        {card.error}
      </p>
      {demo ? <p className="text-xs text-ink-soft">{texts.demo}</p> : null}
    </div>
  );
}
