/** The cart's three steps, shared by the drawer and the /panier page. */
export type CartStep = "panier" | "livraison" | "paiement";

export const CART_STEPS: { id: CartStep; title: string }[] = [
  { id: "panier", title: "Mon panier" },
  { id: "livraison", title: "Informations de livraison" },
  { id: "paiement", title: "Finaliser la commande" },
];

export function stepTitle(step: CartStep) {
  return CART_STEPS.find((s) => s.id === step)!.title;
}

export function stepHref(step: CartStep) {
  return step === "panier" ? "/panier" : `/panier?etape=${step}`;
}

type StepCart = { lines: unknown[]; checkout: { current: boolean } | null } | null | undefined;

/** Whether a step can be shown for this cart: delivery needs items, payment needs the cart's order. */
export function isStepReachable(step: CartStep, cart: StepCart): boolean {
  if (step === "panier") return true;
  if (!cart || cart.lines.length === 0) return false;
  return step === "livraison" || Boolean(cart.checkout?.current);
}

/** The step actually shown: the one asked for if reachable, else the closest earlier one. */
export function resolveStep(requested: string | null | undefined, cart: StepCart): CartStep {
  const wanted: CartStep = requested === "livraison" || requested === "paiement" ? requested : "panier";
  if (isStepReachable(wanted, cart)) return wanted;
  return isStepReachable("livraison", cart) ? "livraison" : "panier";
}
