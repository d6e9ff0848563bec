import { useElements, useStripe } from "@stripe/react-stripe-js";
import { useEffect, useRef, useState } from "react";
import { dismissToast, showToast } from "~/components/ui/Toaster";
import {
  cardErrorNotice,
  confirmationErrorNotice,
  isCardProblem,
  PAYMENT_MESSAGES,
  type PaymentNotice,
  type ProviderError,
} from "~/lib/payment-messages";
import { BILLING_COUNTRY, type Billing } from "~/schemas/billing";
import { cardElementOf } from "./CardField";
import { attachPaymentMethod, confirmPayment, createSubscription, startOneOffPayment } from "./payment-api";
import {
  clearSubscriptionAttempt,
  markSubscriptionPending,
  readSubscriptionAttempt,
  saveSubscriptionAttempt,
} from "./payment-attempt";

/**
 * The card payment's flow, inside Stripe's <Elements>: the client secret from the server (or
 * the subscription attempt kept for 5 minutes, see payment-attempt.ts), the payment method
 * and the card confirmation by Stripe.js, then the server's word, asked again a few times
 * in case Stripe is slow to settle. Only the server's confirmation makes the order paid
 * (onPaid). Every failure shows a toast (at the top of the screen) and the same message inline
 * under the pay button (failure); fixing its cause (resolve) dismisses both.
 */

export type PaymentMode = "one_off" | "subscription";

/**
 * What a failure is about, so that fixing it dismisses it: the billing address, the
 * subscription's consent, the card field (incomplete, declined, wrong CVC...), or the payment.
 */
export type FailureCause = "billing" | "consent" | "card" | "payment";

/** The key of the payment step's toasts (Toaster's dismissToast). */
const TOAST_KEY = "payment";

type SecretResult = { kind: "secret"; clientSecret: string; subscriptionId?: string } | { kind: "paid" } | { kind: "stop" };

/** The server is asked up to 5 times, 0.6 s, 1.2 s, ... apart. */
const CONFIRM_ATTEMPTS = 5;
const CONFIRM_BACKOFF_MS = 600;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function usePaymentFlow({
  orderId,
  customerEmail,
  customerName,
  onPaid,
}: {
  orderId: number;
  customerEmail: string;
  customerName: string;
  onPaid: (orderId: number) => void;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const [processing, setProcessing] = useState(false);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<(PaymentNotice & { cause: FailureCause }) | null>(null);
  const processingRef = useRef(false);
  const paidNotified = useRef(false);

  function notifyPaid() {
    if (paidNotified.current) return;
    paidNotified.current = true;
    clearSubscriptionAttempt(orderId);
    setDone(true);
    setFailure(null);
    dismissToast(TOAST_KEY);
    showToast({ message: PAYMENT_MESSAGES.paid.title, description: PAYMENT_MESSAGES.paid.description, type: "success" });
    onPaid(orderId);
  }

  // The latest notifyPaid, so the effect below runs once per order and not on every render.
  const notifyPaidRef = useRef(notifyPaid);
  notifyPaidRef.current = notifyPaid;

  // Back on this step after a reload: an order Stripe already has paid goes straight on.
  useEffect(() => {
    let active = true;
    confirmPayment(orderId)
      .then((result) => {
        if (active && result.ok && result.data.paid && !processingRef.current) notifyPaidRef.current();
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [orderId]);

  /** A failure: a toast and the same message inline under the pay button. */
  function fail(notice: PaymentNotice, inline: PaymentNotice = notice, cause: FailureCause = "payment") {
    showToast({ message: notice.title, description: notice.description, type: "error", key: TOAST_KEY });
    setFailure({ ...inline, cause });
  }

  /** The cause of the failure shown is fixed: its toast and its inline message go. */
  function resolve(cause: FailureCause) {
    if (failure?.cause !== cause) return;
    setFailure(null);
    dismissToast(TOAST_KEY);
  }

  /** The server's word on the order; asked again briefly in case Stripe is slow to settle. */
  async function finishWhenServerConfirms(): Promise<boolean> {
    for (let attempt = 0; attempt < CONFIRM_ATTEMPTS; attempt++) {
      const result = await confirmPayment(orderId).catch(() => null);
      if (result?.ok && result.data.paid) {
        notifyPaid();
        return true;
      }
      await sleep(CONFIRM_BACKOFF_MS * (attempt + 1));
    }
    fail(PAYMENT_MESSAGES.notConfirmed);
    return false;
  }

  async function oneOffSecret(): Promise<SecretResult> {
    const result = await startOneOffPayment(orderId);
    if (result.ok) {
      return result.data.paid ? { kind: "paid" } : { kind: "secret", clientSecret: result.data.clientSecret };
    }
    const code = result.error?.code;
    if (code === "order_already_paid") return { kind: "paid" };
    if (code === "resource_already_exists") fail(PAYMENT_MESSAGES.concurrentAttempt);
    else
      fail({ title: PAYMENT_MESSAGES.general.title, description: result.error?.error || PAYMENT_MESSAGES.general.description });
    return { kind: "stop" };
  }

  async function subscriptionSecret(): Promise<SecretResult> {
    const stored = readSubscriptionAttempt(orderId);
    if (stored.kind === "pending") {
      showToast({
        message: PAYMENT_MESSAGES.pendingAttempt.title,
        description: PAYMENT_MESSAGES.pendingAttempt.description,
        type: "warning",
      });
      return { kind: "stop" };
    }
    if (stored.kind === "reusable") {
      return { kind: "secret", clientSecret: stored.attempt.clientSecret, subscriptionId: stored.attempt.subscriptionId };
    }
    markSubscriptionPending(orderId);
    let result: Awaited<ReturnType<typeof createSubscription>>;
    try {
      result = await createSubscription({ orderId, customerEmail, customerName });
    } catch (error) {
      clearSubscriptionAttempt(orderId);
      throw error;
    }
    if (!result.ok) {
      clearSubscriptionAttempt(orderId);
      const errorMessage = result.error?.error ?? "";
      switch (result.error?.code) {
        case "subscription_exists":
          // Not destructive: the order may simply be paid already.
          showToast({
            message: PAYMENT_MESSAGES.subscriptionExists.title,
            description: errorMessage || PAYMENT_MESSAGES.subscriptionExists.description,
            type: "info",
          });
          return { kind: "paid" };
        case "order_already_paid":
          return { kind: "paid" };
        case "resource_already_exists":
          fail(PAYMENT_MESSAGES.concurrentAttempt);
          return { kind: "stop" };
        default:
          fail({ title: "Erreur", description: errorMessage || PAYMENT_MESSAGES.subscriptionFailed });
          return { kind: "stop" };
      }
    }
    const { clientSecret, subscriptionId, setupFee, status, paymentIntentStatus, message } = result.data;
    if (!clientSecret) {
      clearSubscriptionAttempt(orderId);
      fail(PAYMENT_MESSAGES.missingClientSecret, {
        title: PAYMENT_MESSAGES.clientSecretNotReceived,
        description: PAYMENT_MESSAGES.missingClientSecret.description,
      });
      return { kind: "stop" };
    }
    saveSubscriptionAttempt(orderId, {
      clientSecret,
      subscriptionId,
      setupFee,
      timestamp: Date.now(),
      status,
      paymentIntentStatus,
    });
    if (message) showToast({ message, type: "info" });
    return { kind: "secret", clientSecret, subscriptionId };
  }

  /** Pays with the card field for a checked billing address. */
  async function pay(mode: PaymentMode, billing: Billing) {
    if (!stripe || !elements) {
      fail(PAYMENT_MESSAGES.general);
      return;
    }
    const cardElement = cardElementOf(elements);
    if (!cardElement) {
      fail(PAYMENT_MESSAGES.cardElementMissing);
      return;
    }

    processingRef.current = true;
    setProcessing(true);
    const subscription = mode === "subscription";
    try {
      const secret = subscription ? await subscriptionSecret() : await oneOffSecret();
      if (secret.kind === "stop") return;
      if (secret.kind === "paid") {
        await finishWhenServerConfirms();
        return;
      }
      if (!secret.clientSecret) {
        if (subscription) clearSubscriptionAttempt(orderId);
        fail(PAYMENT_MESSAGES.missingClientSecret);
        return;
      }

      const { paymentMethod, error: methodError } = await stripe.createPaymentMethod({
        type: "card",
        card: cardElement,
        billing_details: {
          name: `${billing.firstName} ${billing.lastName}`,
          email: customerEmail || undefined,
          address: { line1: billing.address, postal_code: billing.postalCode, city: billing.city, country: BILLING_COUNTRY },
        },
      });
      if (methodError || !paymentMethod) {
        if (subscription) clearSubscriptionAttempt(orderId);
        fail(cardErrorNotice(methodError as ProviderError | undefined), undefined, "card");
        return;
      }

      const { paymentIntent, error } = await stripe.confirmCardPayment(secret.clientSecret, { payment_method: paymentMethod.id });
      const alreadySucceeded = error?.code === "payment_intent_unexpected_state" && error.payment_intent?.status === "succeeded";
      if (error && !alreadySucceeded) {
        if (subscription) clearSubscriptionAttempt(orderId);
        const notice = confirmationErrorNotice(error as ProviderError);
        // A declined card or a refused authentication: changing the card dismisses the message.
        fail(notice, notice, isCardProblem(error as ProviderError) ? "card" : "payment");
        return;
      }
      if (paymentIntent && paymentIntent.status !== "succeeded" && paymentIntent.status !== "processing") {
        if (subscription) clearSubscriptionAttempt(orderId);
        fail(PAYMENT_MESSAGES.general);
        return;
      }

      if (subscription && secret.subscriptionId) {
        // The card pays the next invoices too. A failure here does not stop the order.
        const attached = await attachPaymentMethod({
          orderId,
          subscriptionId: secret.subscriptionId,
          paymentMethodId: paymentMethod.id,
          customerEmail,
        }).catch(() => null);
        if (!attached?.ok) console.warn("attach-payment-method a échoué", attached?.status);
      }
      clearSubscriptionAttempt(orderId);
      await finishWhenServerConfirms();
    } catch {
      if (subscription) clearSubscriptionAttempt(orderId);
      fail(PAYMENT_MESSAGES.general);
    } finally {
      processingRef.current = false;
      setProcessing(false);
    }
  }

  return {
    /** Stripe.js and its Elements are ready. */
    ready: Boolean(stripe && elements),
    processing,
    /** The server confirmed the order paid. */
    done,
    /** The last failure, shown under the pay button. */
    failure,
    /** A payment runs, or the order is paid: a new attempt is ignored. */
    isBusy: () => processingRef.current || done,
    clearFailure: () => {
      setFailure(null);
      dismissToast(TOAST_KEY);
    },
    fail,
    resolve,
    pay,
  };
}
