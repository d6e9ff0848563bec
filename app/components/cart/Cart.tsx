import type { SubmissionResult } from "@conform-to/react";
import { Link, useNavigate } from "@remix-run/react";
import { Suspense, useCallback } from "react";
import { formatPrice } from "~/lib/money";
import { CartLines } from "./CartLines";
import { CartSteps } from "./CartSteps";
import { CartTotals, ClearCartButton } from "./CartSummary";
import { CheckoutPayment } from "./CheckoutPayment";
import { PromoCode } from "./PromoCode";
import type { DeliveryForm } from "./DeliveryForm";
import { StepLink, type StepNavigation } from "./StepLink";
import { resolveStep, stepHref, stepTitle, type CartStep } from "./steps";
import { useOptimisticCart, type ClientCart } from "./useOptimisticCart";

type CartProps = {
  /** 'drawer': the modal on every page (JavaScript); 'page': /panier, which works without it. */
  mode: "drawer" | "page";
  /** Undefined while the drawer loads the cart for the first time. */
  cart: ClientCart | null | undefined;
  step: CartStep;
  loading?: boolean;
  /** Page mode: the delivery form's errors after a post without JavaScript. */
  deliveryResult?: SubmissionResult<string[]>;
  /** Drawer mode. */
  onStepChange?: (step: CartStep) => void;
  onClose?: () => void;
  headingId?: string;
  /**
   * The delivery form: /panier passes it directly (it must render without JavaScript);
   * the drawer passes a lazily loaded one, so the form's validation code is not shipped
   * with every page of the shop.
   */
  deliveryForm: typeof DeliveryForm;
};

function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block h-5 w-5 animate-spin rounded-full border-2 border-rose-200 border-t-rose-600"
    />
  );
}

/** One cart for the drawer and the /panier page: steps, lines, summary, delivery form, payment. */
export function Cart({
  mode,
  cart: serverCart,
  step: requestedStep,
  loading = false,
  deliveryResult,
  onStepChange,
  onClose,
  headingId = "cart-title",
  deliveryForm: DeliveryForm,
}: CartProps) {
  const { cart, pending } = useOptimisticCart(serverCart);
  const navigate = useNavigate();
  const drawer = mode === "drawer";
  const go = useCallback(
    (next: CartStep) => (drawer ? onStepChange?.(next) : navigate(stepHref(next))),
    [drawer, onStepChange, navigate],
  );
  const nav: StepNavigation = drawer ? { mode: "drawer", go } : { mode: "page" };
  const step = cart ? resolveStep(requestedStep, cart) : "panier";
  const empty = !cart || cart.lines.length === 0;
  const busy = loading || pending;
  const Heading = drawer ? "h2" : "h1";

  const onDelivered = useCallback(() => go("paiement"), [go]);

  const header = (
    <div className={drawer ? "border-b border-ink/10 px-5 pb-3 pt-4" : "mb-6"}>
      <div className="flex items-center justify-between gap-4">
        <Heading id={headingId} className={`font-serif ${drawer ? "text-2xl" : "text-3xl md:text-4xl"}`} tabIndex={-1}>
          {stepTitle(step)}
        </Heading>
        {onClose ? (
          <button
            type="button"
            onClick={onClose}
            aria-label="Fermer le panier"
            data-testid="cart-close"
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-2xl leading-none hover:bg-sand"
          >
            ×
          </button>
        ) : null}
      </div>
      <div className="mt-3">
        <CartSteps step={step} cart={cart} nav={nav} />
      </div>
    </div>
  );

  let body: React.ReactNode;
  let footer: React.ReactNode = null;

  if (step === "panier") {
    if (!cart) {
      body = (
        <p role="status" className="flex items-center gap-3 py-10 text-ink-soft">
          <Spinner />
          Chargement du panier...
        </p>
      );
    } else if (empty) {
      body = (
        <div className="flex flex-col items-center py-12 text-center" data-testid="cart-empty">
          <p className="font-serif text-xl">Votre panier est vide</p>
          <p className="mt-2 text-sm text-ink-soft">Découvrez nos coffrets de masques au collagène.</p>
          <Link to="/product/1" className="btn-secondary mt-6">
            Découvrir nos masques
          </Link>
        </div>
      );
    } else {
      body = <CartLines lines={cart.lines} />;
    }
    footer = (
      <div className="space-y-4">
        {!empty ? <PromoCode promotion={cart?.promotion ?? null} /> : null}
        <CartTotals
          subtotalCents={cart?.subtotalCents ?? 0}
          shippingCents={cart?.shippingCents ?? 0}
          totalCents={cart?.totalCents ?? 0}
          discount={cart?.promotion ? { code: cart.promotion.code, cents: cart.promotion.discountCents } : null}
        />
        {empty || busy ? (
          <button type="button" className="btn-primary w-full" disabled>
            {busy && !empty ? <Spinner /> : null}
            Procéder au paiement
          </button>
        ) : (
          <StepLink step="livraison" nav={nav} className="btn-primary w-full" testId="cart-checkout">
            Procéder au paiement
          </StepLink>
        )}
        <p className="text-center text-xs text-ink-soft">Paiement sécurisé par carte : Visa, Mastercard, Amex</p>
        {!empty ? (
          <div className="flex justify-center">
            <ClearCartButton />
          </div>
        ) : null}
      </div>
    );
  } else if (step === "livraison" && cart) {
    body = (
      <div className="space-y-5 py-4">
        <p className="flex justify-between rounded-xl bg-sand/60 px-4 py-3 text-sm">
          <span className="text-ink-soft">
            {cart.count} article{cart.count > 1 ? "s" : ""} · livraison gratuite
          </span>
          <span className="font-semibold">{formatPrice(cart.totalCents)}</span>
        </p>
        <Suspense
          fallback={
            <p className="flex items-center gap-3 py-6 text-ink-soft">
              <Spinner /> Chargement...
            </p>
          }
        >
          <DeliveryForm defaults={cart.checkout?.delivery ?? null} lastResult={deliveryResult} onSuccess={onDelivered}>
            <StepLink step="panier" nav={nav} className="btn-secondary">
              Retour au panier
            </StepLink>
          </DeliveryForm>
        </Suspense>
      </div>
    );
  } else if (step === "paiement" && cart?.checkout) {
    body = (
      <div className="py-4">
        <CheckoutPayment checkout={cart.checkout} onBack={() => go("livraison")} onDone={onClose} />
      </div>
    );
  }

  if (drawer) {
    return (
      <>
        {header}
        {/* The summary follows the lines (not pinned to the bottom, where the toasts appear). */}
        <div className="min-h-0 flex-1 overflow-y-auto px-5 pb-6">
          {body}
          {footer ? <div className="border-t border-ink/10 pt-4">{footer}</div> : null}
        </div>
      </>
    );
  }
  return (
    <>
      {header}
      <div className="rounded-2xl bg-white px-5 shadow-sm ring-1 ring-ink/5 md:px-8">
        {body}
        {footer ? <div className="border-t border-ink/10 py-5">{footer}</div> : null}
      </div>
    </>
  );
}
