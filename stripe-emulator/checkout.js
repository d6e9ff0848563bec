// @ts-check
import { createHash, randomBytes } from "node:crypto";
import { intParam } from "./encoding.js";
import { cardRequiresAuthentication, StripeApiError } from "./core.js";

/**
 * Checkout Sessions and their hosted payment page, as Stripe's test mode runs them.
 *
 * API (secret key): `POST /v1/checkout/sessions` (`mode` payment or subscription, `line_items`
 * with `price` or `price_data` (`product` or `product_data[name]`), `success_url` with
 * `{CHECKOUT_SESSION_ID}`, `cancel_url`, `customer` or `customer_email`, `client_reference_id`,
 * `metadata`, `payment_intent_data[metadata|description|receipt_email]`,
 * `subscription_data[metadata|description|trial_period_days]`), `GET /v1/checkout/sessions/:id`
 * (`expand[]`), `POST /v1/checkout/sessions/:id/expire`.
 *
 * The session's `url` is the hosted page, on the emulator's own origin: server-rendered HTML in
 * French, without JavaScript. Its card form pays the session with the test cards: the
 * PaymentIntent (mode payment) or the subscription with its first invoice paid (mode
 * subscription); then `checkout.session.completed` is sent and the shopper goes to the
 * `success_url`. A card that asks for 3-D Secure shows the challenge as a second page.
 */

/**
 * @typedef {import("./core.js").StripeObject} StripeObject
 * @typedef {import("./core.js").StripeEmulatorCore} StripeEmulatorCore
 * @typedef {import("./encoding.js").StripeParams} StripeParams
 * @typedef {{ method: string, path: string, run: (ctx: { args: string[], params: StripeParams }) => unknown }} CheckoutRoute
 * @typedef {{ status: number, headers: Record<string, string>, body: string }} HostedPageResponse
 */

/** A session can be paid for 24 hours (Stripe's default). */
const SESSION_LIFETIME_SECONDS = 24 * 3600;

const AUTHENTICATION_FAILED_MESSAGE = "L'authentification de votre carte a échoué. Réessayez ou utilisez une autre carte.";

/**
 * @param {string} message
 * @param {Record<string, unknown>} [extra]
 * @returns {StripeApiError}
 */
function invalid(message, extra = {}) {
  return new StripeApiError(400, { type: "invalid_request_error", message, ...extra });
}

/**
 * @param {unknown} value
 * @param {string} param
 * @returns {any}
 */
function required(value, param) {
  if (value === undefined || value === null || value === "") {
    throw invalid(`Missing required param: ${param}.`, { code: "parameter_missing", param });
  }
  return value;
}

/**
 * @param {unknown} value
 * @returns {Record<string, string>}
 */
function metadataOf(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of Object.entries(value)) if (v !== "" && v !== null && v !== undefined) out[k] = String(v);
  return out;
}

/**
 * @param {string} url
 * @param {string} param
 * @returns {string}
 */
function absoluteUrl(url, param) {
  try {
    const parsed = new URL(String(required(url, param)).replace("{CHECKOUT_SESSION_ID}", "x"));
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("scheme");
  } catch {
    throw invalid(`Not a valid URL`, { code: "url_invalid", param });
  }
  return String(url);
}

// ---------------------------------------------------------------------------------------------
// The API

/**
 * The Checkout Sessions routes, added to the core's (core.js `#buildRoutes`).
 * @param {StripeEmulatorCore} core
 * @returns {CheckoutRoute[]}
 */
export function checkoutSessionRoutes(core) {
  return [
    { method: "POST", path: "/v1/checkout/sessions", run: ({ params }) => core.render(createSession(core, params), params) },
    {
      method: "GET",
      path: "/v1/checkout/sessions/:id",
      run: ({ args, params }) => core.render(sessionOf(core, args[0]), params),
    },
    {
      method: "POST",
      path: "/v1/checkout/sessions/:id/expire",
      run: ({ args, params }) => core.render(expireSession(core, args[0]), params),
    },
  ];
}

/**
 * @param {StripeEmulatorCore} core
 * @param {string} id
 * @returns {StripeObject}
 */
function sessionOf(core, id) {
  const session = core.objects.get(id);
  if (!session || session.object !== "checkout.session") {
    throw new StripeApiError(404, {
      type: "invalid_request_error",
      code: "resource_missing",
      param: "session",
      message: `No such checkout.session: '${id}'`,
    });
  }
  if (session.status === "open" && session.expires_at <= core.now()) expire(core, session);
  return session;
}

/**
 * One line item as a stored price (created for `price_data`, with a product for `product_data`).
 * @param {StripeEmulatorCore} core
 * @param {StripeParams} item
 * @param {number} index
 * @returns {{ price: StripeObject, quantity: number, description: string }}
 */
function lineItemPrice(core, item, index) {
  const quantity = intParam(item.quantity) ?? 1;
  if (!Number.isInteger(quantity) || quantity < 1) throw invalid("Invalid quantity", { param: `line_items[${index}][quantity]` });
  /** @type {StripeObject | undefined} */
  let price;
  if (item.price) {
    price = core.getObject(String(item.price));
    if (!price || price.object !== "price")
      throw invalid(`No such price: '${item.price}'`, { param: `line_items[${index}][price]` });
  } else if (item.price_data) {
    const data = item.price_data;
    let product = data.product;
    if (!product) {
      const name = required(data.product_data?.name, `line_items[${index}][price_data][product_data][name]`);
      product = core.createProduct({ name, metadata: data.product_data?.metadata }).id;
    }
    price = core.createPrice({ ...data, product, product_data: undefined });
  } else {
    throw invalid(`Missing required param: line_items[${index}][price].`, {
      code: "parameter_missing",
      param: `line_items[${index}][price]`,
    });
  }
  const product = core.getObject(price.product);
  return { price, quantity, description: product?.name ?? "Article" };
}

/**
 * @param {StripeEmulatorCore} core
 * @param {StripeParams} params
 * @returns {StripeObject}
 */
function createSession(core, params) {
  const mode = required(params.mode, "mode");
  if (mode !== "payment" && mode !== "subscription") {
    throw invalid(`The emulator's Checkout Sessions support mode payment and subscription, not '${mode}'.`, { param: "mode" });
  }
  const successUrl = absoluteUrl(params.success_url, "success_url");
  const cancelUrl = params.cancel_url ? absoluteUrl(params.cancel_url, "cancel_url") : null;
  if (params.customer && !core.getObject(String(params.customer))) {
    throw invalid(`No such customer: '${params.customer}'`, { code: "resource_missing", param: "customer" });
  }
  const items = Array.isArray(params.line_items) ? params.line_items : [];
  if (items.length === 0)
    throw invalid("Missing required param: line_items.", { code: "parameter_missing", param: "line_items" });
  const lines = items.map((item, i) => lineItemPrice(core, item, i));
  const currencies = new Set(lines.map((l) => l.price.currency));
  if (currencies.size !== 1) throw invalid("All prices must use the same currency.", { param: "line_items" });
  const recurring = lines.filter((l) => l.price.recurring);
  if (mode === "payment" && recurring.length > 0) {
    throw invalid("You must use mode=subscription for recurring prices.", { param: "line_items" });
  }
  if (mode === "subscription" && recurring.length === 0) {
    throw invalid("You must provide at least one recurring price in `subscription` mode.", { param: "line_items" });
  }
  const trialDays = intParam(params.subscription_data?.trial_period_days);
  // A coupon (`discounts[0][coupon]`): taken off today's amount, then off the subscription's invoices while it lasts.
  const discounts = Array.isArray(params.discounts) ? params.discounts : [];
  if (discounts.length > 1) throw invalid("Only one discount per session is supported here.", { param: "discounts" });
  const coupon = discounts[0]?.coupon ? core.getObject(String(discounts[0].coupon)) : null;
  if (discounts[0] && (!coupon || coupon.object !== "coupon")) {
    throw invalid(`No such coupon: '${discounts[0]?.coupon}'`, { code: "resource_missing", param: "discounts[0][coupon]" });
  }
  // What is charged today: every one-time line, and the recurring lines unless a trial comes first.
  const subtotalToday = lines.reduce(
    (sum, l) => sum + (l.price.recurring && trialDays ? 0 : l.price.unit_amount * l.quantity),
    0,
  );
  const discountToday = !coupon
    ? 0
    : coupon.amount_off !== null
      ? Math.min(coupon.amount_off, subtotalToday)
      : Math.round((subtotalToday * coupon.percent_off) / 100);
  const amountToday = subtotalToday - discountToday;
  const now = core.now();
  const id = `cs_test_${randomBytes(30).toString("base64url").replace(/[-_]/g, "a")}`;
  /** @type {StripeObject} */
  const session = {
    id,
    object: "checkout.session",
    amount_subtotal: subtotalToday,
    amount_total: amountToday,
    total_details: { amount_discount: discountToday, amount_shipping: 0, amount_tax: 0 },
    cancel_url: cancelUrl,
    client_reference_id: params.client_reference_id || null,
    created: now,
    currency: [...currencies][0],
    customer: params.customer || null,
    customer_details: null,
    customer_email: params.customer_email || null,
    expires_at: now + SESSION_LIFETIME_SECONDS,
    invoice: null,
    livemode: false,
    locale: params.locale || null,
    metadata: metadataOf(params.metadata),
    mode,
    payment_intent: null,
    payment_method_types: ["card"],
    payment_status: "unpaid",
    status: "open",
    subscription: null,
    success_url: successUrl,
    url: `${core.publicUrl}/c/pay/${id}`,
    _lines: lines.map((l) => ({ price: l.price.id, quantity: l.quantity, description: l.description })),
    _payment_intent_data: {
      metadata: metadataOf(params.payment_intent_data?.metadata),
      description: params.payment_intent_data?.description || null,
      receipt_email: params.payment_intent_data?.receipt_email || params.customer_email || null,
    },
    _subscription_data: {
      metadata: metadataOf(params.subscription_data?.metadata),
      description: params.subscription_data?.description || null,
      trial_period_days: trialDays ?? null,
    },
    _pending_payment_method: null,
    _coupon: coupon ? coupon.id : null,
  };
  core.objects.set(id, session);
  return session;
}

/**
 * @param {StripeEmulatorCore} core
 * @param {StripeObject} session
 * @returns {void}
 */
function expire(core, session) {
  session.status = "expired";
  session.url = null;
  core.emitEvent("checkout.session.expired", session);
}

/**
 * @param {StripeEmulatorCore} core
 * @param {string} id
 * @returns {StripeObject}
 */
function expireSession(core, id) {
  const session = sessionOf(core, id);
  if (session.status !== "open") {
    throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired.`, {
      code: "checkout_session_unexpected_state",
    });
  }
  expire(core, session);
  return session;
}

// ---------------------------------------------------------------------------------------------
// Paying a session

/**
 * Pays the session with the card: the PaymentIntent (mode payment) or the subscription and its
 * first invoice (mode subscription). A card error is thrown (402) and the session stays open.
 * @param {StripeEmulatorCore} core
 * @param {StripeObject} session
 * @param {StripeObject} pm
 * @returns {void}
 */
function paySession(core, session, pm) {
  if (session.mode === "payment") {
    let pi = session.payment_intent ? core.objects.get(session.payment_intent) : null;
    if (!pi || pi.status === "canceled") {
      const data = session._payment_intent_data;
      pi = core.createPaymentIntent({
        amount: session.amount_total,
        currency: session.currency,
        ...(session.customer ? { customer: session.customer } : {}),
        ...(data.description ? { description: data.description } : {}),
        ...(data.receipt_email ? { receipt_email: data.receipt_email } : {}),
        metadata: data.metadata,
      });
      session.payment_intent = pi.id;
    }
    core.confirmPaymentIntent(pi.id, { payment_method: pm.id });
  } else {
    if (!session.customer) session.customer = core.createCustomer({ email: session.customer_email ?? undefined }).id;
    core.attachPaymentMethod(pm.id, { customer: session.customer });
    const lines = /** @type {{ price: string, quantity: number }[]} */ (session._lines);
    const isRecurring = (/** @type {{ price: string }} */ l) => Boolean(core.objects.get(l.price)?.recurring);
    const data = session._subscription_data;
    const sub = core.createSubscription({
      customer: session.customer,
      items: lines.filter(isRecurring).map((l) => ({ price: l.price, quantity: String(l.quantity) })),
      add_invoice_items: lines.filter((l) => !isRecurring(l)).map((l) => ({ price: l.price, quantity: String(l.quantity) })),
      ...(data.trial_period_days ? { trial_period_days: String(data.trial_period_days) } : {}),
      ...(data.description ? { description: data.description } : {}),
      ...(session._coupon ? { discounts: [{ coupon: session._coupon }] } : {}),
      metadata: data.metadata,
      default_payment_method: pm.id,
      payment_behavior: "error_if_incomplete",
      payment_settings: { save_default_payment_method: "on_subscription", payment_method_types: ["card"] },
    });
    session.subscription = sub.id;
    session.invoice = sub.latest_invoice;
  }
  session.status = "complete";
  session.payment_status = "paid";
  session.url = null;
  session._pending_payment_method = null;
  const customer = session.customer ? core.objects.get(session.customer) : null;
  session.customer_details = { email: customer?.email ?? session.customer_email, name: pm.billing_details?.name ?? null };
  core.emitEvent("checkout.session.completed", session);
}

/** Where the shopper goes once the session is paid. */
function successUrlOf(/** @type {StripeObject} */ session) {
  return String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id);
}

// ---------------------------------------------------------------------------------------------
// The hosted page (HTML, no JavaScript)

/**
 * `GET /c/pay/:id` shows the card form; `POST /c/pay/:id` pays with the card (or shows the
 * 3-D Secure challenge); `POST /c/pay/:id/authentification` answers the challenge.
 * @param {StripeEmulatorCore} core
 * @param {{ method: string, path: string, form: URLSearchParams }} request
 * @returns {HostedPageResponse}
 */
export function hostedCheckoutPage(core, { method, path, form }) {
  const match = /^\/c\/pay\/(cs_[A-Za-z0-9_]+)(\/authentification)?\/?$/.exec(path);
  const session = match ? core.objects.get(match[1]) : undefined;
  if (!match || !session || session.object !== "checkout.session") {
    return page(404, "Page de paiement introuvable", `<p>Ce lien de paiement n'existe pas.</p>`, null);
  }
  if (session.status === "open" && session.expires_at <= core.now()) expire(core, session);
  if (session.status === "complete") return redirect(successUrlOf(session), session);
  if (session.status !== "open") {
    return page(
      410,
      "Session de paiement expirée",
      `<p>Cette page de paiement a expiré. Revenez à la boutique pour payer votre commande.</p>${cancelLink(session)}`,
      session,
    );
  }
  if (method === "GET") return cardPage(session, null, 200);
  if (method !== "POST") return page(405, "Méthode non autorisée", "", session);

  if (match[2]) {
    // The 3-D Secure challenge's answer.
    const pm = session._pending_payment_method ? core.objects.get(session._pending_payment_method) : null;
    session._pending_payment_method = null;
    if (!pm) return cardPage(session, null, 200);
    if (form.get("decision") !== "autoriser") return cardPage(session, AUTHENTICATION_FAILED_MESSAGE, 402);
    return charge(core, session, pm);
  }

  let pm;
  try {
    pm = core.createPaymentMethod({ type: "card", card: cardParams(form) });
  } catch (error) {
    if (error instanceof StripeApiError) return cardPage(session, String(error.error.message), 400);
    throw error;
  }
  if (cardRequiresAuthentication(pm._number)) {
    session._pending_payment_method = pm.id;
    return challengePage(session);
  }
  return charge(core, session, pm);
}

/**
 * @param {StripeEmulatorCore} core
 * @param {StripeObject} session
 * @param {StripeObject} pm
 * @returns {HostedPageResponse}
 */
function charge(core, session, pm) {
  try {
    paySession(core, session, pm);
  } catch (error) {
    if (error instanceof StripeApiError && error.status === 402) return cardPage(session, String(error.error.message), 402);
    throw error;
  }
  return redirect(successUrlOf(session), session);
}

/**
 * The card fields of the form, as `card[...]` of a payment method ("MM/AA" split).
 * @param {URLSearchParams} form
 * @returns {Record<string, string>}
 */
function cardParams(form) {
  const expiry = (form.get("expiration") ?? "").replace(/\s/g, "");
  const [month = "", year = ""] = expiry.includes("/") ? expiry.split("/") : [expiry.slice(0, 2), expiry.slice(2)];
  return {
    number: form.get("numero") ?? "",
    exp_month: month,
    exp_year: year,
    cvc: (form.get("cvc") ?? "").trim(),
  };
}

/**
 * @param {number} cents
 * @param {string} currency
 * @returns {string}
 */
function formatAmount(cents, currency) {
  return new Intl.NumberFormat("fr-FR", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}

/**
 * @param {string} text
 * @returns {string}
 */
function escapeHtml(text) {
  return text.replace(
    /[&<>"']/g,
    (c) => /** @type {Record<string, string>} */ ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

/** @param {StripeObject} session */
function cancelLink(session) {
  return session.cancel_url
    ? `<p class="cancel"><a href="${escapeHtml(session.cancel_url)}">Annuler</a> et revenir à la boutique</p>`
    : "";
}

/** @param {StripeObject} session */
function summary(session) {
  const lines = /** @type {{ quantity: number, description: string }[]} */ (session._lines)
    .map((l) => `<li>${l.quantity} × ${escapeHtml(l.description)}</li>`)
    .join("");
  const recurring =
    session.mode === "subscription"
      ? `<p class="note">Abonnement : les prélèvements suivants sont faits avec cette carte.</p>`
      : "";
  return `<section class="summary" aria-label="Récapitulatif"><p class="amount">${formatAmount(session.amount_total, session.currency)}</p><ul>${lines}</ul>${recurring}</section>`;
}

/**
 * @param {StripeObject} session
 * @param {string | null} error
 * @param {number} status
 * @returns {HostedPageResponse}
 */
function cardPage(session, error, status) {
  const alert = error ? `<p class="error" role="alert" id="erreur">${escapeHtml(error)}</p>` : "";
  const described = error ? ` aria-describedby="erreur"` : "";
  const body = `${summary(session)}
<form method="post" action="/c/pay/${session.id}" class="card"${described}>
  ${alert}
  <label for="numero">Numéro de carte</label>
  <input id="numero" name="numero" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required maxlength="23">
  <div class="row">
    <div>
      <label for="expiration">Date d'expiration</label>
      <input id="expiration" name="expiration" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/AA" aria-describedby="expiration-aide" required maxlength="7">
      <p class="hint" id="expiration-aide">MM/AA</p>
    </div>
    <div>
      <label for="cvc">CVC</label>
      <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required maxlength="4">
    </div>
  </div>
  <button type="submit">Payer</button>
</form>
${cancelLink(session)}
<p class="note">Émulateur Stripe (mode démo) : aucun débit réel. Carte 4242 4242 4242 4242, une date future et un CVC quelconque.</p>`;
  return page(status, "Paiement sécurisé", body, session);
}

/**
 * @param {StripeObject} session
 * @returns {HostedPageResponse}
 */
function challengePage(session) {
  const body = `${summary(session)}
<section class="card" aria-label="Confirmation demandée par votre banque">
  <p>Votre banque vous demande de confirmer ce paiement de ${formatAmount(session.amount_total, session.currency)}.</p>
  <form method="post" action="/c/pay/${session.id}/authentification">
    <button type="submit" name="decision" value="autoriser">Autoriser le paiement</button>
  </form>
  <form method="post" action="/c/pay/${session.id}/authentification">
    <button type="submit" name="decision" value="refuser" class="secondary">Refuser</button>
  </form>
</section>`;
  return page(200, "Authentification 3-D Secure", body, session);
}

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f3ef}
main{max-width:28rem;margin:0 auto;padding:1.25rem 1rem 2rem}h1{font-size:1.35rem;margin:0 0 1rem}h2{font-size:1.15rem;margin:0 0 .5rem}
.summary{background:#fff;border-radius:.75rem;padding:1rem;margin-bottom:1rem;box-shadow:0 1px 2px rgba(0,0,0,.06)}.summary ul{margin:.25rem 0 0;padding-left:1.1rem}
.amount{font-size:1.6rem;font-weight:700;margin:0}.card{background:#fff;border-radius:.75rem;padding:1rem;box-shadow:0 1px 2px rgba(0,0,0,.06)}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}input{width:100%;font-size:1.05rem;padding:.7rem .75rem;border:1px solid #9aa5b1;border-radius:.5rem;background:#fff}
input:focus,button:focus,a:focus{outline:3px solid #635bff;outline-offset:2px}.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.hint{margin:.2rem 0 0;font-size:.85rem;color:#52606d}button{display:block;width:100%;margin-top:1.25rem;min-height:3rem;font-size:1.05rem;font-weight:600;color:#fff;background:#635bff;border:0;border-radius:.5rem;cursor:pointer}
button.secondary{background:#fff;color:#1f2933;border:1px solid #9aa5b1;margin-top:.75rem}.error{margin:0 0 .5rem;padding:.75rem;border-radius:.5rem;background:#fde8e8;color:#9b1c1c}
.cancel{margin:1.25rem 0 0;text-align:center}.cancel a{color:#3e4c59;font-weight:600}.note{font-size:.85rem;color:#52606d}`;
const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE, "utf8").digest("base64")}'`;

/**
 * A whole page, with the emulator's own headers: nothing runs, forms post to the emulator and
 * redirect to the shop.
 * @param {number} status
 * @param {string} title
 * @param {string} body
 * @param {StripeObject | null} session
 * @returns {HostedPageResponse}
 */
function page(status, title, body, session) {
  const html = `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Boutique</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;
  return { status, headers: pageHeaders(session, "text/html; charset=utf-8"), body: html };
}

/**
 * @param {string} location
 * @param {StripeObject} session
 * @returns {HostedPageResponse}
 */
function redirect(location, session) {
  return { status: 303, headers: { ...pageHeaders(session, "text/plain; charset=utf-8"), Location: location }, body: "" };
}

/**
 * @param {StripeObject | null} session
 * @param {string} contentType
 * @returns {Record<string, string>}
 */
function pageHeaders(session, contentType) {
  // The form posts here, then goes back to the shop (its success or cancel page).
  const shopOrigins = new Set();
  for (const url of [session?.success_url, session?.cancel_url]) {
    try {
      if (url) shopOrigins.add(new URL(String(url).replace("{CHECKOUT_SESSION_ID}", "x")).origin);
    } catch {
      // not a URL: nothing to allow
    }
  }
  return {
    "Content-Type": contentType,
    "Cache-Control": "no-store",
    "Content-Security-Policy": [
      "default-src 'none'",
      `style-src ${STYLE_HASH}`,
      `form-action 'self' ${[...shopOrigins].join(" ")}`.trim(),
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join("; "),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
  };
}
