// @ts-check
/*
 * Stand-in for Stripe.js (https://js.stripe.com), demo mode only.
 *
 * Defines window.Stripe before @stripe/stripe-js's loadStripe() looks for it, so
 * @stripe/react-stripe-js's <Elements> and <CardElement> run their normal path. The card
 * element is a plain, accessible card field (number, expiry, CVC) rendered in the page, and
 * every API call goes to our own origin (the shop proxies it to the local emulator), which the
 * Content-Security-Policy allows. Card numbers never leave the machine.
 */
(function () {
  "use strict";
  if (typeof window === "undefined" || window.Stripe) return;

  /**
   * Types (local to this script, which the page loads as a classic script).
   *
   * A JSON object answered by the API (payment method, payment intent), left loose.
   * @typedef {Record<string, any>} ApiObject
   *
   * A Stripe.js error: a validation error of the card field or the API's `error` object.
   * @typedef {{ type: string, code?: string, message?: string, [key: string]: unknown }} StripeError
   *
   * @typedef {{ data: ApiObject, error?: undefined } | { error: StripeError, data?: undefined }} ApiResult
   * @typedef {{ paymentMethod: ApiObject, error?: undefined } | { error: StripeError, paymentMethod?: undefined }} PaymentMethodResult
   * @typedef {{ paymentIntent: ApiObject, error?: undefined } | { error: StripeError, paymentIntent?: undefined }} PaymentIntentResult
   *
   * @typedef {"number" | "expiry" | "cvc"} CardField
   * @typedef {Record<CardField, HTMLInputElement>} CardInputs
   *
   * The payload of the card element's events (`ready`, `focus`, `blur`, `escape`, `change`).
   * @typedef {{ elementType: string, [key: string]: unknown }} ElementEvent
   * @typedef {(payload: ElementEvent) => void} ElementHandler
   *
   * @typedef {{ empty: boolean, complete: boolean, error: StripeError | undefined, brand: string }} CardState
   *
   * @typedef {object} BillingAddress
   * @property {string} [line1]
   * @property {string} [line2]
   * @property {string} [city]
   * @property {string} [postal_code]
   * @property {string} [state]
   * @property {string} [country]
   *
   * @typedef {object} BillingDetails
   * @property {string} [name]
   * @property {string} [email]
   * @property {string} [phone]
   * @property {BillingAddress} [address]
   *
   * What createPaymentMethod() receives (Stripe.js's object form).
   * @typedef {object} PaymentMethodData
   * @property {string} [type]
   * @property {CardElement} [card]
   * @property {BillingDetails} [billing_details]
   * @property {Record<string, string>} [metadata]
   *
   * What confirmCardPayment() receives: an existing payment method id, or a card to create one.
   * @typedef {object} ConfirmCardPaymentData
   * @property {string | { card?: CardElement, billing_details?: BillingDetails }} [payment_method]
   * @property {string} [setup_future_usage]
   */

  var script = document.currentScript;
  var API_BASE = (script && script.getAttribute("data-api-base")) || "/stripe-emulator/api";

  // ------------------------------------------------------------------------------------------
  // Helpers

  /**
   * Stripe's form encoding (`a[b][0][c]=…`), like stripe-emulator/encoding.js.
   * @param {unknown} data
   * @param {string} [prefix]
   * @returns {string}
   */
  function encode(data, prefix) {
    /** @type {string[]} */
    var parts = [];
    /**
     * @param {unknown} value
     * @param {string} key
     */
    function walk(value, key) {
      if (value === undefined) return;
      if (value === null) {
        parts.push(encodeURIComponent(key) + "=");
      } else if (Array.isArray(value)) {
        value.forEach(function (item, i) {
          walk(item, key + "[" + i + "]");
        });
      } else if (typeof value === "object") {
        var record = /** @type {Record<string, unknown>} */ (value);
        Object.keys(record).forEach(function (k) {
          walk(record[k], key ? key + "[" + k + "]" : k);
        });
      } else {
        parts.push(encodeURIComponent(key) + "=" + encodeURIComponent(String(value)));
      }
    }
    walk(data, prefix || "");
    return parts.join("&");
  }

  /**
   * @param {unknown} value
   * @returns {string}
   */
  function digits(value) {
    return String(value || "").replace(/\D/g, "");
  }

  /**
   * @param {string} number
   * @returns {boolean}
   */
  function luhn(number) {
    if (!/^\d{12,19}$/.test(number)) return false;
    var sum = 0;
    var dbl = false;
    for (var i = number.length - 1; i >= 0; i--) {
      var d = number.charCodeAt(i) - 48;
      if (dbl) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
      dbl = !dbl;
    }
    return sum % 10 === 0;
  }

  /**
   * @param {string} number
   * @returns {string}
   */
  function brandOf(number) {
    if (/^4/.test(number)) return "visa";
    if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return "mastercard";
    if (/^3[47]/.test(number)) return "amex";
    if (/^6(011|5)/.test(number)) return "discover";
    return "unknown";
  }

  var MESSAGES = {
    incomplete_number: "Votre numéro de carte est incomplet.",
    invalid_number: "Votre numéro de carte est invalide.",
    incomplete_expiry: "La date d'expiration de votre carte est incomplète.",
    invalid_expiry_month: "Le mois d'expiration de votre carte est invalide.",
    invalid_expiry_year_past: "L'année d'expiration de votre carte est dans le passé.",
    invalid_expiry_year: "L'année d'expiration de votre carte est invalide.",
    incomplete_cvc: "Le code de sécurité de votre carte est incomplet.",
  };

  /** @typedef {keyof typeof MESSAGES} ValidationCode */

  /**
   * @param {ValidationCode} code
   * @returns {StripeError}
   */
  function validationError(code) {
    var key = code === "invalid_expiry_year_past" ? "invalid_expiry_year" : code;
    return { type: "validation_error", code: key, message: MESSAGES[code] };
  }

  /**
   * Calls the emulator's API through the shop (same origin) with the publishable key.
   * @param {string} publishableKey
   * @param {"GET" | "POST"} method
   * @param {string} path
   * @param {Record<string, unknown>} [params]
   * @returns {Promise<ApiResult>}
   */
  function request(publishableKey, method, path, params) {
    var url = API_BASE + path;
    /** @type {RequestInit & { headers: Record<string, string> }} */
    var init = {
      method: method,
      credentials: "same-origin",
      headers: {
        Authorization: "Bearer " + publishableKey,
        Accept: "application/json",
      },
    };
    if (method === "GET") {
      var query = encode(params || {});
      if (query) url += "?" + query;
    } else {
      init.headers["Content-Type"] = "application/x-www-form-urlencoded";
      init.body = encode(params || {});
    }
    return fetch(url, init).then(
      function (response) {
        return response
          .json()
          .catch(function () {
            return { error: { type: "api_error", message: "Réponse invalide du service de paiement." } };
          })
          .then(function (body) {
            if (!response.ok || (body && body.error)) {
              return { error: (body && body.error) || { type: "api_error", message: "Erreur " + response.status } };
            }
            return { data: body };
          });
      },
      function () {
        return {
          error: {
            type: "api_connection_error",
            message: "Impossible de joindre le service de paiement. Vérifiez votre connexion.",
          },
        };
      },
    );
  }

  // ------------------------------------------------------------------------------------------
  // The card element

  var CARD_STYLE = {
    wrapper: "display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:8px 12px;",
    wide: "grid-column:1 / -1;",
    field: "display:flex;flex-direction:column;gap:4px;min-width:0;",
    label: "font-size:12px;line-height:16px;color:#5b5350;",
    input:
      "width:100%;box-sizing:border-box;border:1px solid #d6cfc9;border-radius:8px;padding:8px 10px;" +
      "font:inherit;font-size:16px;line-height:24px;color:#2b2523;background:#fff;outline:none;",
    invalid: "border-color:#be123c;",
    focus: "border-color:#2b2523;box-shadow:0 0 0 2px rgba(43,37,35,.15);",
  };

  var uid = 0;

  /**
   * @constructor
   * @param {Elements} group
   * @param {Record<string, unknown>} [options] `disabled` is the only option it reads
   */
  function CardElement(group, options) {
    this._group = group;
    /** @type {Record<string, unknown>} */
    this._options = options || {};
    /** @type {Record<string, ElementHandler[]>} */
    this._listeners = {};
    /** @type {Element | null} the node it is mounted in */
    this._node = null;
    /** @type {HTMLDivElement | null} */
    this._root = null;
    /** @type {CardInputs | null} */
    this._inputs = null;
    /** @type {Record<CardField, boolean>} */
    this._touched = { number: false, expiry: false, cvc: false };
    this._destroyed = false;
    this._id = "emu-card-" + ++uid;
    /** @type {CardState} */
    this._state = { empty: true, complete: false, error: undefined, brand: "unknown" };
  }

  /**
   * @param {string} event
   * @param {ElementHandler} handler
   */
  CardElement.prototype.on = function (event, handler) {
    (this._listeners[event] = this._listeners[event] || []).push(handler);
    return this;
  };
  CardElement.prototype.addEventListener = CardElement.prototype.on;
  /**
   * @param {string} event
   * @param {ElementHandler} handler
   */
  CardElement.prototype.once = function (event, handler) {
    /** @type {ElementHandler} */
    var wrapped = (payload) => {
      this.off(event, wrapped);
      handler(payload);
    };
    return this.on(event, wrapped);
  };
  /**
   * @param {string} event
   * @param {ElementHandler} [handler] every handler of the event when omitted
   */
  CardElement.prototype.off = function (event, handler) {
    var list = this._listeners[event];
    if (!list) return this;
    this._listeners[event] = handler
      ? list.filter(function (h) {
          return h !== handler;
        })
      : [];
    return this;
  };
  CardElement.prototype.removeEventListener = CardElement.prototype.off;

  /**
   * @param {string} event
   * @param {ElementEvent} payload
   */
  CardElement.prototype._emit = function (event, payload) {
    (this._listeners[event] || []).slice().forEach(function (handler) {
      try {
        handler(payload);
      } catch (error) {
        setTimeout(function () {
          throw error;
        });
      }
    });
  };

  /** @param {string | Element} target a selector or a DOM node */
  CardElement.prototype.mount = function (target) {
    if (this._destroyed) throw new Error("This Element has already been destroyed. Please create a new one.");
    var node = typeof target === "string" ? document.querySelector(target) : target;
    if (!node || !node.appendChild) {
      throw new Error(
        "The selector you specified (" + String(target) + ") applies to no DOM elements that are currently on the page.",
      );
    }
    if (this._node) this.unmount();
    this._node = node;
    node.classList.add("StripeElement", "StripeElement--empty");
    this._render();
    setTimeout(() => {
      if (this._node) this._emit("ready", { elementType: "card" });
    }, 0);
    return this;
  };

  CardElement.prototype._render = function () {
    var id = this._id;
    var root = document.createElement("div");
    root.setAttribute("data-stripe-emulator", "card");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", "Carte bancaire");
    root.style.cssText = CARD_STYLE.wrapper;

    /**
     * @param {CardField} name
     * @param {string} labelText
     * @param {Record<string, string>} attrs
     * @returns {HTMLInputElement}
     */
    function field(name, labelText, attrs) {
      var wrap = document.createElement("div");
      wrap.style.cssText = CARD_STYLE.field + (name === "number" ? CARD_STYLE.wide : "");
      var label = document.createElement("label");
      label.htmlFor = id + "-" + name;
      label.textContent = labelText;
      label.style.cssText = CARD_STYLE.label;
      var input = document.createElement("input");
      input.id = id + "-" + name;
      input.name = "emulator-card-" + name;
      input.type = "text";
      input.spellcheck = false;
      input.style.cssText = CARD_STYLE.input;
      Object.keys(attrs).forEach(function (k) {
        input.setAttribute(k, attrs[k]);
      });
      wrap.appendChild(label);
      wrap.appendChild(input);
      root.appendChild(wrap);
      return input;
    }

    var number = field("number", "Numéro de carte", {
      inputmode: "numeric",
      autocomplete: "cc-number",
      placeholder: "1234 1234 1234 1234",
      maxlength: "23",
    });
    var expiry = field("expiry", "Expiration (MM / AA)", {
      inputmode: "numeric",
      autocomplete: "cc-exp",
      placeholder: "MM / AA",
      maxlength: "7",
    });
    var cvc = field("cvc", "CVC", {
      inputmode: "numeric",
      autocomplete: "cc-csc",
      placeholder: "CVC",
      maxlength: "4",
    });
    /** @type {CardInputs} */
    var inputs = { number: number, expiry: expiry, cvc: cvc };
    this._inputs = inputs;
    this._applyDisabled();

    number.addEventListener("input", () => {
      var d = digits(number.value).slice(0, 19);
      var amex = brandOf(d) === "amex";
      var groups = amex ? [4, 6, 5] : [4, 4, 4, 4, 3];
      var out = [];
      var rest = d;
      for (var i = 0; i < groups.length && rest; i++) {
        out.push(rest.slice(0, groups[i]));
        rest = rest.slice(groups[i]);
      }
      number.value = out.join(" ");
      this._update();
    });
    expiry.addEventListener("input", (event) => {
      // An InputEvent when the shopper types; a plain Event (no inputType) when dispatched by script.
      var inputEvent = /** @type {Event & { inputType?: string }} */ (event);
      var d = digits(expiry.value).slice(0, 4);
      if (d.length === 1 && d > "1") d = "0" + d;
      var deleting = inputEvent && inputEvent.inputType && inputEvent.inputType.indexOf("delete") === 0;
      expiry.value = d.length >= 2 && !(deleting && d.length === 2) ? d.slice(0, 2) + " / " + d.slice(2) : d;
      this._update();
    });
    cvc.addEventListener("input", () => {
      cvc.value = digits(cvc.value).slice(0, 4);
      this._update();
    });
    /** @type {CardField[]} */ (["number", "expiry", "cvc"]).forEach((name) => {
      var input = inputs[name];
      input.addEventListener("blur", () => {
        this._touched[name] = true;
        this._update();
      });
    });
    root.addEventListener("focusin", (event) => {
      // Only the inputs of the card field can take the focus.
      var target = /** @type {HTMLElement | null} */ (event.target);
      if (target && target.style) target.style.cssText = CARD_STYLE.input + CARD_STYLE.focus;
      if (!root.contains(/** @type {Node | null} */ (event.relatedTarget))) {
        if (this._node) this._node.classList.add("StripeElement--focus");
        this._emit("focus", { elementType: "card" });
      }
    });
    root.addEventListener("focusout", (event) => {
      this._paint();
      if (!root.contains(/** @type {Node | null} */ (event.relatedTarget))) {
        if (this._node) this._node.classList.remove("StripeElement--focus");
        this._emit("blur", { elementType: "card" });
      }
    });
    root.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this._emit("escape", { elementType: "card" });
    });
    this._root = root;
    // Called by mount() once the node is set.
    /** @type {Element} */ (this._node).appendChild(root);
  };

  CardElement.prototype._applyDisabled = function () {
    if (!this._inputs) return;
    var disabled = !!this._options.disabled;
    this._inputs.number.disabled = disabled;
    this._inputs.expiry.disabled = disabled;
    this._inputs.cvc.disabled = disabled;
  };

  /**
   * Reads the fields and validates them like Stripe (called only while mounted).
   */
  CardElement.prototype._evaluate = function () {
    var inputs = /** @type {CardInputs} */ (this._inputs);
    var number = digits(inputs.number.value);
    var exp = digits(inputs.expiry.value);
    var cvc = digits(inputs.cvc.value);
    var brand = brandOf(number);
    var numberLength = brand === "amex" ? 15 : 16;
    var cvcLength = brand === "amex" ? 4 : 3;
    /** @type {Record<CardField, ValidationCode | null>} */
    var errors = { number: null, expiry: null, cvc: null };

    if (number.length >= numberLength && !luhn(number)) errors.number = "invalid_number";
    else if (number.length < numberLength && this._touched.number && number.length > 0) errors.number = "incomplete_number";

    var month = Number(exp.slice(0, 2));
    var year = Number(exp.slice(2, 4));
    if (exp.length >= 2 && (month < 1 || month > 12)) errors.expiry = "invalid_expiry_month";
    else if (exp.length === 4) {
      var now = new Date();
      var fullYear = 2000 + year;
      if (fullYear < now.getFullYear() || (fullYear === now.getFullYear() && month < now.getMonth() + 1)) {
        errors.expiry = "invalid_expiry_year_past";
      } else if (fullYear > now.getFullYear() + 50) {
        errors.expiry = "invalid_expiry_year";
      }
    } else if (this._touched.expiry && exp.length > 0) errors.expiry = "incomplete_expiry";

    if (cvc.length > 0 && cvc.length < cvcLength && this._touched.cvc) errors.cvc = "incomplete_cvc";

    var complete =
      number.length === numberLength && luhn(number) && exp.length === 4 && !errors.expiry && cvc.length === cvcLength;
    var firstError = errors.number || errors.expiry || errors.cvc;
    return {
      number: number,
      expMonth: month,
      expYear: 2000 + year,
      cvc: cvc,
      brand: brand,
      empty: number.length === 0 && exp.length === 0 && cvc.length === 0,
      complete: complete,
      errors: errors,
      error: firstError ? validationError(firstError) : undefined,
    };
  };

  CardElement.prototype._paint = function () {
    const inputs = this._inputs;
    if (!inputs) return;
    var state = this._evaluate();
    /** @type {CardField[]} */ (["number", "expiry", "cvc"]).forEach((name) => {
      var input = inputs[name];
      var bad = !!state.errors[name];
      input.setAttribute("aria-invalid", bad ? "true" : "false");
      if (document.activeElement !== input) input.style.cssText = CARD_STYLE.input + (bad ? CARD_STYLE.invalid : "");
    });
    var node = this._node;
    if (node) {
      node.classList.toggle("StripeElement--empty", state.empty);
      node.classList.toggle("StripeElement--complete", state.complete);
      node.classList.toggle("StripeElement--invalid", !!state.error);
    }
    return state;
  };

  CardElement.prototype._update = function () {
    var state = this._paint();
    if (!state) return;
    this._state = { empty: state.empty, complete: state.complete, error: state.error, brand: state.brand };
    // Like Stripe: a change event on every edit (and when a blur reveals an incomplete field).
    this._emit("change", {
      elementType: "card",
      empty: state.empty,
      complete: state.complete,
      error: state.error,
      brand: state.brand,
      value: { postalCode: "" },
    });
  };

  /** Card details for createPaymentMethod (what Stripe's iframe would tokenize). */
  CardElement.prototype._cardData = function () {
    if (!this._inputs) return null;
    var state = this._evaluate();
    return { number: state.number, exp_month: state.expMonth, exp_year: state.expYear, cvc: state.cvc, _state: state };
  };

  /** @param {Record<string, unknown>} [options] */
  CardElement.prototype.update = function (options) {
    if (options) {
      for (var k in options) if (Object.prototype.hasOwnProperty.call(options, k)) this._options[k] = options[k];
    }
    this._applyDisabled();
    return this;
  };
  CardElement.prototype.focus = function () {
    if (this._inputs) this._inputs.number.focus();
    return this;
  };
  CardElement.prototype.blur = function () {
    // The focused node is one of the card's inputs.
    if (this._root && this._root.contains(document.activeElement)) /** @type {HTMLElement} */ (document.activeElement).blur();
    return this;
  };
  CardElement.prototype.clear = function () {
    if (!this._inputs) return this;
    this._inputs.number.value = "";
    this._inputs.expiry.value = "";
    this._inputs.cvc.value = "";
    this._touched = { number: false, expiry: false, cvc: false };
    this._update();
    return this;
  };
  CardElement.prototype.unmount = function () {
    if (this._root && this._root.parentNode) this._root.parentNode.removeChild(this._root);
    if (this._node) {
      this._node.classList.remove(
        "StripeElement",
        "StripeElement--empty",
        "StripeElement--focus",
        "StripeElement--complete",
        "StripeElement--invalid",
      );
    }
    this._root = null;
    this._inputs = null;
    this._node = null;
    return this;
  };
  CardElement.prototype.destroy = function () {
    this.unmount();
    this._destroyed = true;
    this._listeners = {};
    this._group._forget(this);
    return this;
  };

  // ------------------------------------------------------------------------------------------
  // The 3-D Secure challenge (what Stripe.js shows in its modal frame)

  var CHALLENGE_STYLE = {
    overlay:
      "position:fixed;inset:0;z-index:2147483000;display:flex;align-items:center;justify-content:center;" +
      "padding:16px;box-sizing:border-box;background:rgba(43,37,35,.55);",
    panel:
      "width:100%;max-width:460px;max-height:100%;overflow:auto;box-sizing:border-box;background:#fff;color:#2b2523;" +
      "border-radius:16px;padding:24px;box-shadow:0 20px 50px rgba(0,0,0,.25);font-family:inherit;font-size:16px;line-height:24px;",
    bank: "margin:0 0 4px;font-size:12px;line-height:16px;letter-spacing:.08em;text-transform:uppercase;color:#5b5350;",
    title: "margin:0 0 12px;font-size:20px;line-height:28px;font-weight:600;",
    text: "margin:0 0 8px;color:#2b2523;",
    amount: "margin:0 0 20px;font-size:24px;line-height:32px;font-weight:600;",
    actions: "display:flex;flex-wrap:wrap;gap:12px;",
    primary:
      "flex:1 1 200px;min-height:48px;border:0;border-radius:999px;padding:12px 20px;font:inherit;font-weight:600;" +
      "background:#2b2523;color:#fff;cursor:pointer;",
    secondary:
      "flex:1 1 120px;min-height:48px;border:1px solid #2b2523;border-radius:999px;padding:12px 20px;font:inherit;" +
      "font-weight:600;background:#fff;color:#2b2523;cursor:pointer;",
    focus: "outline:3px solid #b45309;outline-offset:2px;",
  };

  /**
   * @param {number} cents
   * @param {string} currency
   * @returns {string}
   */
  function formatAmount(cents, currency) {
    try {
      return new Intl.NumberFormat("fr-FR", { style: "currency", currency: String(currency || "eur").toUpperCase() }).format(
        cents / 100,
      );
    } catch {
      return (cents / 100).toFixed(2) + " " + String(currency || "").toUpperCase();
    }
  }

  /**
   * The bank's challenge, as a modal dialog: « Autoriser le paiement » (« Autoriser l'enregistrement » for a card being saved) or « Refuser » (Escape
   * refuses, like closing Stripe's frame). The focus stays inside, and comes back where it was.
   * @param {ApiObject | null} paymentIntent the payment, or null for a card being set up
   * @returns {Promise<boolean>} whether the customer authorized the payment
   */
  function showChallenge(paymentIntent) {
    return new Promise(function (resolve) {
      var previous = /** @type {HTMLElement | null} */ (document.activeElement);
      var id = "emu-3ds-" + ++uid;
      var overlay = document.createElement("div");
      overlay.setAttribute("data-stripe-emulator", "three-d-secure");
      overlay.style.cssText = CHALLENGE_STYLE.overlay;
      var panel = document.createElement("div");
      panel.setAttribute("role", "dialog");
      panel.setAttribute("aria-modal", "true");
      panel.setAttribute("aria-labelledby", id + "-title");
      panel.setAttribute("aria-describedby", id + "-text");
      panel.style.cssText = CHALLENGE_STYLE.panel;

      /**
       * @param {string} tag
       * @param {string} style
       * @param {string} text
       * @returns {HTMLElement}
       */
      function add(tag, style, text) {
        var node = document.createElement(tag);
        node.style.cssText = style;
        node.textContent = text;
        panel.appendChild(node);
        return node;
      }
      add("p", CHALLENGE_STYLE.bank, "Votre banque");
      add("h2", CHALLENGE_STYLE.title, "Authentification 3-D Secure").id = id + "-title";
      add(
        "p",
        CHALLENGE_STYLE.text,
        paymentIntent
          ? "Votre banque vous demande de confirmer ce paiement, comme dans votre application bancaire."
          : "Votre banque vous demande de confirmer l'enregistrement de cette carte, comme dans votre application bancaire.",
      ).id = id + "-text";
      if (paymentIntent)
        add("p", CHALLENGE_STYLE.amount, formatAmount(Number(paymentIntent.amount) || 0, paymentIntent.currency));
      var actions = document.createElement("div");
      actions.style.cssText = CHALLENGE_STYLE.actions;
      panel.appendChild(actions);

      /**
       * @param {string} label
       * @param {string} style
       * @param {boolean} authorized
       * @returns {HTMLButtonElement}
       */
      function button(label, style, authorized) {
        var node = document.createElement("button");
        node.type = "button";
        node.textContent = label;
        node.style.cssText = style;
        node.addEventListener("focus", function () {
          node.style.cssText = style + CHALLENGE_STYLE.focus;
        });
        node.addEventListener("blur", function () {
          node.style.cssText = style;
        });
        node.addEventListener("click", function () {
          close(authorized);
        });
        actions.appendChild(node);
        return node;
      }
      var authorize = button(
        paymentIntent ? "Autoriser le paiement" : "Autoriser l'enregistrement",
        CHALLENGE_STYLE.primary,
        true,
      );
      var refuse = button("Refuser", CHALLENGE_STYLE.secondary, false);

      /** @param {KeyboardEvent} event */
      function onKey(event) {
        if (event.key === "Escape") {
          event.preventDefault();
          close(false);
        } else if (event.key === "Tab") {
          // The focus goes round the two buttons only.
          event.preventDefault();
          (document.activeElement === authorize ? refuse : authorize).focus();
        }
      }
      var closed = false;
      /** @param {boolean} authorized */
      function close(authorized) {
        if (closed) return;
        closed = true;
        document.removeEventListener("keydown", onKey, true);
        if (overlay.parentNode) overlay.parentNode.removeChild(overlay);
        if (previous && typeof previous.focus === "function" && document.contains(previous)) previous.focus();
        resolve(authorized);
      }
      document.addEventListener("keydown", onKey, true);
      overlay.appendChild(panel);
      document.body.appendChild(overlay);
      authorize.focus();
    });
  }

  // ------------------------------------------------------------------------------------------
  // Elements group and the Stripe object

  /**
   * @constructor
   * @param {StripeInstance} stripe
   * @param {Record<string, unknown>} [options]
   */
  function Elements(stripe, options) {
    this._stripe = stripe;
    /** @type {Record<string, unknown>} */
    this._options = options || {};
    /** @type {Record<string, CardElement>} */
    this._elements = {};
  }
  /**
   * @param {string} type only "card"
   * @param {Record<string, unknown>} [options]
   */
  Elements.prototype.create = function (type, options) {
    if (type !== "card") {
      throw new Error("L'émulateur Stripe ne fournit que l'élément 'card' (demandé : '" + type + "').");
    }
    if (this._elements[type]) {
      throw new Error("Can only create one Element of type " + type + ".");
    }
    var element = new CardElement(this, options);
    this._elements[type] = element;
    return element;
  };
  /**
   * @param {string | { __elementType?: string } | null | undefined} typeOrComponent an element type or react-stripe-js's component
   * @returns {CardElement | null}
   */
  Elements.prototype.getElement = function (typeOrComponent) {
    var type = typeof typeOrComponent === "string" ? typeOrComponent : typeOrComponent && typeOrComponent.__elementType;
    return (type && this._elements[type]) || null;
  };
  /** @param {CardElement} element */
  Elements.prototype._forget = function (element) {
    for (var k in this._elements) if (this._elements[k] === element) delete this._elements[k];
  };
  /** @param {Record<string, unknown>} [options] */
  Elements.prototype.update = function (options) {
    var changes = options || {};
    for (var k in changes) this._options[k] = changes[k];
  };
  Elements.prototype.fetchUpdates = function () {
    return Promise.resolve({});
  };
  Elements.prototype.submit = function () {
    return Promise.resolve({});
  };

  /**
   * @param {string} name
   * @returns {() => Promise<{ error: StripeError }>}
   */
  function unsupported(name) {
    return function () {
      return Promise.resolve({
        error: { type: "invalid_request_error", message: name + " n'est pas disponible dans l'émulateur Stripe." },
      });
    };
  }

  /**
   * @param {unknown} clientSecret
   * @returns {string | null}
   */
  function piIdFromSecret(clientSecret) {
    var match = /^(pi_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(String(clientSecret || ""));
    return match ? match[1] : null;
  }

  /** Stripe.js's answer to a client secret it cannot read. @returns {{ error: StripeError }} */
  function invalidClientSecret() {
    return { error: { type: "invalid_request_error", code: "invalid_client_secret", message: "Client secret invalide." } };
  }

  /** @param {BillingDetails | undefined} details */
  function billingParams(details) {
    if (!details) return undefined;
    /** @type {BillingAddress} */
    var address = details.address || {};
    return {
      name: details.name,
      email: details.email,
      phone: details.phone,
      address: {
        line1: address.line1,
        line2: address.line2,
        city: address.city,
        postal_code: address.postal_code,
        state: address.state,
        country: address.country,
      },
    };
  }

  /**
   * @constructor
   * @param {string} publishableKey
   * @param {Record<string, unknown>} [options]
   */
  function StripeInstance(publishableKey, options) {
    this._key = publishableKey;
    /** @type {Record<string, unknown>} */
    this._options = options || {};
    /** @type {unknown[]} */
    this._wrappers = [];
    /** @type {unknown} */
    this._appInfo = null;
  }

  /** @param {Record<string, unknown>} [options] */
  StripeInstance.prototype.elements = function (options) {
    return new Elements(this, options);
  };
  /** @param {unknown} wrapper */
  StripeInstance.prototype._registerWrapper = function (wrapper) {
    this._wrappers.push(wrapper);
  };
  /** @param {unknown} info */
  StripeInstance.prototype.registerAppInfo = function (info) {
    this._appInfo = info;
  };

  /**
   * @param {CardElement | null | undefined} card the element from elements().create("card")
   * @param {BillingDetails} [billingDetails]
   * @param {Record<string, string>} [metadata]
   * @returns {Promise<PaymentMethodResult>}
   */
  StripeInstance.prototype._createCardPaymentMethod = function (card, billingDetails, metadata) {
    var data = card && typeof card._cardData === "function" ? card._cardData() : null;
    if (!data) {
      return Promise.resolve({
        error: { type: "integration_error", message: "Aucun élément de carte monté : impossible de lire la carte." },
      });
    }
    var state = data._state;
    if (state.empty || !state.number) {
      return Promise.resolve({ error: validationError("incomplete_number") });
    }
    if (state.error) return Promise.resolve({ error: state.error });
    if (!state.complete) {
      // _cardData() answered, so the card is mounted and has its inputs.
      var inputs = /** @type {CardInputs} */ (/** @type {CardElement} */ (card)._inputs);
      /** @type {ValidationCode} */
      var code =
        state.number.length < (state.brand === "amex" ? 15 : 16)
          ? "incomplete_number"
          : digits(inputs.expiry.value).length < 4
            ? "incomplete_expiry"
            : "incomplete_cvc";
      return Promise.resolve({ error: validationError(code) });
    }
    return request(this._key, "POST", "/v1/payment_methods", {
      type: "card",
      card: { number: data.number, exp_month: data.exp_month, exp_year: data.exp_year, cvc: data.cvc },
      billing_details: billingParams(billingDetails),
      metadata: metadata,
    }).then(function (result) {
      return result.error ? { error: result.error } : { paymentMethod: result.data };
    });
  };

  /**
   * @param {string | PaymentMethodData | undefined} typeOrData
   * @param {CardElement} [element]
   * @param {{ billing_details?: BillingDetails }} [data]
   * @returns {Promise<PaymentMethodResult>}
   */
  StripeInstance.prototype.createPaymentMethod = function (typeOrData, element, data) {
    // Both signatures: createPaymentMethod({ type, card, billing_details }) and
    // the older createPaymentMethod('card', cardElement, { billing_details }).
    /** @type {PaymentMethodData} */
    var params =
      typeof typeOrData === "string"
        ? { type: typeOrData, card: element, billing_details: data && data.billing_details }
        : typeOrData || {};
    if (params.type !== "card") {
      return Promise.resolve({ error: { type: "invalid_request_error", message: "Seul le type 'card' est pris en charge." } });
    }
    return this._createCardPaymentMethod(params.card, params.billing_details, params.metadata);
  };

  /**
   * The payment method a confirmation names, as Stripe.js reads `data.payment_method`: an id, a
   * card element (a new payment method made from it), or none.
   * @param {ConfirmCardPaymentData} [data]
   * @returns {Promise<{ id: string } | ApiObject | null>}
   */
  StripeInstance.prototype._paymentMethodOf = function (data) {
    var pm = data && data.payment_method;
    if (typeof pm === "string") return Promise.resolve({ id: pm });
    if (pm && pm.card) {
      return this._createCardPaymentMethod(pm.card, pm.billing_details).then(function (r) {
        if (r.error) throw { stripeError: r.error };
        return r.paymentMethod;
      });
    }
    return Promise.resolve(null);
  };

  /**
   * @param {string} clientSecret
   * @param {ConfirmCardPaymentData} [data]
   * @returns {Promise<PaymentIntentResult>}
   */
  StripeInstance.prototype.confirmCardPayment = function (clientSecret, data) {
    var piId = piIdFromSecret(clientSecret);
    if (!piId) {
      return Promise.resolve(invalidClientSecret());
    }
    return this._paymentMethodOf(data)
      .then((paymentMethod) => {
        /** @type {Record<string, unknown>} */
        var params = { client_secret: clientSecret };
        if (paymentMethod) params.payment_method = paymentMethod.id;
        if (data && data.setup_future_usage) params.setup_future_usage = data.setup_future_usage;
        return request(this._key, "POST", "/v1/payment_intents/" + piId + "/confirm", params);
      })
      .then(
        (result) => {
          if (result.error) return { error: result.error };
          return this._handleNextAction(result.data, clientSecret);
        },
        function (failure) {
          if (failure && failure.stripeError) return { error: failure.stripeError };
          throw failure;
        },
      );
  };

  /**
   * @param {string} clientSecret
   * @returns {Promise<PaymentIntentResult>}
   */
  StripeInstance.prototype.retrievePaymentIntent = function (clientSecret) {
    var piId = piIdFromSecret(clientSecret);
    if (!piId) return Promise.resolve({ error: { type: "invalid_request_error", message: "Client secret invalide." } });
    return request(this._key, "GET", "/v1/payment_intents/" + piId, { client_secret: clientSecret }).then(function (result) {
      return result.error ? { error: result.error } : { paymentIntent: result.data };
    });
  };

  /**
   * @param {string} clientSecret
   * @returns {Promise<PaymentIntentResult>}
   */
  StripeInstance.prototype.handleCardAction = function (clientSecret) {
    return this.retrievePaymentIntent(clientSecret).then((result) =>
      result.error ? result : this._handleNextAction(result.paymentIntent, clientSecret),
    );
  };

  /**
   * Like Stripe.js after a confirmation: a PaymentIntent waiting for the customer
   * (`requires_action`) shows the bank's challenge, and the answer gives the PaymentIntent, or
   * its error (`payment_intent_authentication_failure` when refused, a card error when declined).
   * @param {ApiObject} paymentIntent
   * @param {string} clientSecret
   * @returns {Promise<PaymentIntentResult>}
   */
  StripeInstance.prototype._handleNextAction = function (paymentIntent, clientSecret) {
    if (!paymentIntent || paymentIntent.status !== "requires_action" || !paymentIntent.next_action) {
      return Promise.resolve({ paymentIntent: paymentIntent });
    }
    return showChallenge(paymentIntent)
      .then((authorized) =>
        request(this._key, "POST", "/v1/emulator/payment_intents/" + paymentIntent.id + "/authenticate", {
          client_secret: clientSecret,
          result: authorized ? "authorized" : "refused",
        }),
      )
      .then(function (result) {
        if (result.error) return { error: result.error };
        var pi = result.data;
        if (pi.status === "requires_payment_method" && pi.last_payment_error) {
          return { error: Object.assign({}, pi.last_payment_error, { payment_intent: pi }) };
        }
        return { paymentIntent: pi };
      });
  };
  StripeInstance.prototype.createToken = unsupported("createToken");
  StripeInstance.prototype.createSource = unsupported("createSource");
  StripeInstance.prototype.confirmPayment = unsupported("confirmPayment");
  StripeInstance.prototype.confirmSetup = unsupported("confirmSetup");
  /**
   * @param {unknown} clientSecret
   * @returns {string | null}
   */
  function setiIdFromSecret(clientSecret) {
    var match = /^(seti_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(String(clientSecret || ""));
    return match ? match[1] : null;
  }

  /**
   * Like Stripe.js: saves a card for later payments (a SetupIntent). The card's bank may ask for
   * 3-D Secure: the same challenge as a payment, without an amount.
   * @param {string} clientSecret
   * @param {ConfirmCardPaymentData} [data]
   * @returns {Promise<{ setupIntent?: ApiObject, error?: StripeError }>}
   */
  StripeInstance.prototype.confirmCardSetup = function (clientSecret, data) {
    var setiId = setiIdFromSecret(clientSecret);
    if (!setiId) {
      return Promise.resolve(invalidClientSecret());
    }
    return this._paymentMethodOf(data)
      .then((paymentMethod) => {
        /** @type {Record<string, unknown>} */
        var params = { client_secret: clientSecret };
        if (paymentMethod) params.payment_method = paymentMethod.id;
        return request(this._key, "POST", "/v1/setup_intents/" + setiId + "/confirm", params);
      })
      .then(
        (result) => {
          if (result.error) return { error: result.error };
          var seti = result.data;
          if (seti.status !== "requires_action" || !seti.next_action) return { setupIntent: seti };
          return showChallenge(null)
            .then((authorized) =>
              request(this._key, "POST", "/v1/emulator/setup_intents/" + seti.id + "/authenticate", {
                client_secret: clientSecret,
                result: authorized ? "authorized" : "refused",
              }),
            )
            .then(function (answer) {
              if (answer.error) return { error: answer.error };
              var done = answer.data;
              if (done.status === "requires_payment_method" && done.last_setup_error) {
                return { error: Object.assign({}, done.last_setup_error, { setup_intent: done }) };
              }
              return { setupIntent: done };
            });
        },
        function (failure) {
          if (failure && failure.stripeError) return { error: failure.stripeError };
          throw failure;
        },
      );
  };
  StripeInstance.prototype.paymentRequest = function () {
    return {
      canMakePayment: function () {
        return Promise.resolve(null);
      },
      on: function () {},
      show: function () {},
    };
  };

  /**
   * @param {string} publishableKey
   * @param {Record<string, unknown>} [options]
   * @returns {StripeInstance}
   */
  function Stripe(publishableKey, options) {
    if (typeof publishableKey !== "string" || publishableKey === "") {
      throw new Error("Please call Stripe() with your publishable key. You used an empty string.");
    }
    return new StripeInstance(publishableKey, options);
  }
  // @stripe/stripe-js compares this with the release train it expects.
  Stripe.version = "endive";
  Stripe.__emulator = true;
  // The stand-in covers the part of Stripe.js that @stripe/react-stripe-js and the shop use.
  window.Stripe = /** @type {import("@stripe/stripe-js").StripeConstructor} */ (/** @type {unknown} */ (Stripe));
})();
