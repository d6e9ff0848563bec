import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { dataWithError, dataWithSuccess, redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { Cart } from "~/components/cart/Cart";
import type { CartLoaderData } from "~/components/cart/cart-data";
import { DeliveryForm } from "~/components/cart/DeliveryForm";
import { resolveStep, type CartStep } from "~/components/cart/steps";
import { actionError } from "~/http/action-errors.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { pageHeaders, retryAfterHeaders } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { CART_TOASTS, cartAddSchema, cartLineFormSchema, cartSetQuantityFormSchema } from "~/schemas/cart";
import { deliverySchema } from "~/schemas/delivery";
import { parseOrderNumber } from "~/schemas/tracking";
import { putInVisitorCart, readCartId } from "~/services/cart-session.server";
import { CartError, clearCart, putInCart, readCart, setLineQuantity } from "~/services/cart.server";
import { completeCheckout, submitDelivery } from "~/services/checkout.server";
import { isHoneypotFilled } from "~/services/honeypot.server";
import { throttlePublicWrite } from "~/services/limits.server";
import { rememberOrder } from "~/services/orders/session.server";
import { OrderError } from "~/services/orders/errors.server";
import { readPageForm } from "~/http/page-form.server";

export const meta: MetaFunction = () =>
  pageMeta("Mon panier", "Votre panier, vos informations de livraison et le paiement de votre commande.");

export const headers: HeadersFunction = pageHeaders(NO_STORE_HEADERS);

export async function loader({ request }: LoaderFunctionArgs) {
  const cart = await readCart(await readCartId(request));
  const step = resolveStep(new URL(request.url).searchParams.get("etape"), cart);
  return data({ cart, step } satisfies CartLoaderData, { headers: NO_STORE_HEADERS });
}

/**
 * True for Remix's fetch() (JavaScript running: answer with JSON, the page stays where it is),
 * false for a plain form post (no JavaScript: answer with a redirect, post/redirect/get).
 */
function isScriptRequest(request: Request) {
  const mode = request.headers.get("Sec-Fetch-Mode");
  if (mode) return mode !== "navigate";
  return !(request.headers.get("Accept") ?? "").includes("text/html");
}

type Toast = { message: string; description?: string };

function withCookie(...setCookies: (string | undefined)[]): HeadersInit {
  const headers = new Headers(NO_STORE_HEADERS);
  for (const cookie of setCookies) if (cookie) headers.append("Set-Cookie", cookie);
  return headers;
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  const formData = await readPageForm(request);
  const intent = String(formData.get("intent") ?? "");
  const script = isScriptRequest(request);
  const redirectTo = safeRedirect(formData.get("redirectTo"), "/panier");

  const succeed = async <T,>(value: T, toast: Toast | null, setCookie?: string) => {
    if (script) {
      return toast
        ? dataWithSuccess(value, toast, { headers: withCookie(setCookie) })
        : data(value, { headers: withCookie(setCookie) });
    }
    return toast
      ? redirectWithSuccess(redirectTo, toast, { headers: withCookie(setCookie) })
      : redirect(redirectTo, { headers: withCookie(setCookie) });
  };
  const fail = async (toast: Toast, status: number, detail?: string, extraHeaders: Record<string, string> = {}) => {
    const data = { ok: false as const, intent, error: detail ?? toast.description ?? toast.message };
    if (!script) return redirectWithError(redirectTo, toast);
    const headers = new Headers(withCookie(undefined));
    for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
    return dataWithError(data, toast, { status, headers });
  };

  switch (intent) {
    case "add": {
      const parsed = cartAddSchema.safeParse(Object.fromEntries(formData));
      if (!parsed.success) return fail(CART_TOASTS.addFailed, 400, "Produit ou pack invalide");
      try {
        // In the visitor's own cart, else in a new one within the address's allowance (a 429 past it).
        const address = clientAddress(request, context);
        const added = await putInVisitorCart(request, address, async (cartId) => await putInCart(cartId, parsed.data));
        return succeed({ ok: true as const, intent, count: added.result.count }, CART_TOASTS.added, added.setCookie);
      } catch (error) {
        const refusal = error instanceof CartError ? null : actionError(error);
        if (refusal) {
          // With JavaScript the order form shows the message; without, this page does (429, Retry-After, no cookie).
          const headers = new Headers(withCookie(undefined));
          for (const [name, value] of Object.entries(retryAfterHeaders(refusal))) headers.set(name, value);
          return data({ ok: false as const, intent, error: refusal.message }, { status: refusal.status, headers });
        }
        if (error instanceof CartError) {
          const status =
            error.code === "out_of_stock" || error.code === "not_sold"
              ? 409
              : error.code === "invalid_pack" || error.code === "trial_ended"
                ? 422
                : 404;
          return fail(CART_TOASTS.addFailed, status, error.message);
        }
        throw error;
      }
    }

    case "set-quantity":
    case "remove": {
      const failure = intent === "remove" ? CART_TOASTS.removeFailed : CART_TOASTS.quantityFailed;
      const fields = Object.fromEntries(formData);
      const parsed =
        intent === "remove"
          ? cartLineFormSchema.transform((v) => ({ ...v, quantity: 0 })).safeParse(fields)
          : cartSetQuantityFormSchema.safeParse(fields);
      const cartId = await readCartId(request);
      if (!parsed.success || !cartId) return fail(failure, parsed.success ? 404 : 400);
      const { lineId, quantity } = parsed.data;
      try {
        const cart = await setLineQuantity(cartId, lineId, quantity);
        return succeed({ ok: true as const, intent, count: cart.count }, quantity < 1 ? CART_TOASTS.removed : null);
      } catch (error) {
        if (error instanceof CartError) {
          // A quantity the pack does not allow: the toast says why (10 at most, 1 trial pack).
          if (error.code === "quantity_limit") return fail({ message: failure.message, description: error.message }, 422);
          return fail(failure, 404, error.message);
        }
        // With JavaScript the line's form is gone (the cart updates at once) and could not show an
        // error page: a refusal (the site too busy, 503) says why in the toast, the line comes back.
        // Without, the error page says it (http/busy-answers.server.ts).
        const refusal = script ? actionError(error) : null;
        if (refusal) {
          return fail(
            { message: failure.message, description: refusal.message },
            refusal.status,
            undefined,
            retryAfterHeaders(refusal),
          );
        }
        throw error;
      }
    }

    case "clear": {
      const cartId = await readCartId(request);
      if (cartId) await clearCart(cartId);
      return succeed({ ok: true as const, intent, count: 0 }, CART_TOASTS.cleared);
    }

    case "delivery": {
      const submission = parseWithZod(formData, { schema: deliverySchema });
      if (submission.status !== "success") {
        return data({ ok: false as const, intent, result: submission.reply() }, { status: 400, headers: withCookie(undefined) });
      }
      const cartId = await readCartId(request);
      // Bots fill the hidden field: nothing is created.
      if (isHoneypotFilled(formData)) {
        return script ? { ok: false as const, intent, result: submission.reply() } : redirect("/panier");
      }
      try {
        if (!cartId) throw new OrderError("empty_cart", "Votre panier est vide");
        const delivery = submission.value;
        // Counted per client address (limits.server.ts); past the limit, a 429 with the message on the form.
        const { orderId } = await throttlePublicWrite(
          "delivery-form",
          clientAddress(request, context),
          async () => await submitDelivery(cartId, delivery),
        );
        // This browser now proves it owns the order (its name and street show on its pages).
        const remembered = await rememberOrder(request, orderId);
        if (!script) return redirect("/panier?etape=paiement", { headers: withCookie(remembered) });
        return data({ ok: true as const, intent, orderId, result: submission.reply() }, { headers: withCookie(remembered) });
      } catch (error) {
        const refusal = error instanceof OrderError ? null : actionError(error);
        if (refusal) {
          const headers = new Headers(withCookie(undefined));
          for (const [name, value] of Object.entries(retryAfterHeaders(refusal))) headers.set(name, value);
          return data(
            { ok: false as const, intent, result: submission.reply({ formErrors: [refusal.message] }), error: refusal.message },
            { status: refusal.status, headers },
          );
        }
        if (!(error instanceof OrderError)) throw error;
        // The trial pack already bought with this email: said under the email field.
        const reply =
          error.code === "trial_used"
            ? submission.reply({ fieldErrors: { email: [error.message] } })
            : submission.reply({ formErrors: [error.message] });
        const toast = { message: "Erreur", description: `Erreur lors de la création de la commande: ${error.message}` };
        if (!script) {
          if (error.code === "empty_cart") return redirectWithError("/panier", toast);
          // Shown on /panier?etape=livraison with the typed values kept (post without JavaScript).
          return data(
            { ok: false as const, intent, result: reply, error: error.message },
            { status: error.status, headers: withCookie(undefined) },
          );
        }
        return dataWithError({ ok: false as const, intent, result: reply, error: error.message }, toast, {
          status: error.status,
          headers: withCookie(undefined),
        });
      }
    }

    case "complete": {
      // After the payment step: the server (never the browser) has marked the order paid;
      // the cart is emptied only if that is true, then the shopper sees the confirmation.
      const orderId = parseOrderNumber(String(formData.get("orderId") ?? ""));
      const cartId = await readCartId(request);
      if (!orderId) return redirect("/");
      if (cartId) await completeCheckout(cartId, orderId);
      return redirect(`/order-confirmation/${orderId}`, { headers: withCookie(undefined) });
    }

    default:
      return data({ ok: false as const, intent, error: "Action inconnue" }, { status: 400, headers: withCookie(undefined) });
  }
}

export default function CartPage() {
  const { cart, step } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Without JavaScript a refused delivery form comes back here with its errors.
  const deliveryResult = actionData && "result" in actionData && actionData.intent === "delivery" ? actionData.result : undefined;
  const shownStep: CartStep = deliveryResult ? "livraison" : step;
  // Without JavaScript a product refused a new cart (429) comes back here with the reason.
  const addRefusal =
    actionData && actionData.intent === "add" && !actionData.ok && "error" in actionData ? actionData.error : null;
  return (
    <div className="container-page py-8 md:py-12">
      <div className="mx-auto max-w-2xl">
        {addRefusal ? (
          <p role="alert" className="mb-6 rounded-xl border border-rose-200 bg-rose-50 p-4 text-rose-700">
            {CART_TOASTS.addFailed.description} {addRefusal}
          </p>
        ) : null}
        <Cart mode="page" cart={cart} step={shownStep} deliveryResult={deliveryResult} deliveryForm={DeliveryForm} />
      </div>
    </div>
  );
}
