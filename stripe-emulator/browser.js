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

  var script = document.currentScript;
  var API_BASE = (script && script.getAttribute("data-api-base")) || "/stripe-emulator/api";

  // ------------------------------------------------------------------------------------------
  // Helpers

  function encode(data, prefix) {
    var parts = [];
    function walk(value, key) {
      if (value === undefined) return;
      if (value === null) {
        parts.push(encodeURIComponent(key) + "=");
      } else if (Array.isArray(value)) {
        value.forEach(function (item, i) {
          walk(item, key + "[" + i + "]");
        });
      } else if (typeof value === "object") {
        Object.keys(value).forEach(function (k) {
          walk(value[k], key ? key + "[" + k + "]" : k);
        });
      } else {
        parts.push(encodeURIComponent(key) + "=" + encodeURIComponent(String(value)));
      }
    }
    walk(data, prefix || "");
    return parts.join("&");
  }

  function digits(value) {
    return String(value || "").replace(/\D/g, "");
  }

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

  function validationError(code) {
    var key = code === "invalid_expiry_year_past" ? "invalid_expiry_year" : code;
    return { type: "validation_error", code: key, message: MESSAGES[code] };
  }

  function request(publishableKey, method, path, params) {
    var url = API_BASE + path;
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

  function CardElement(group, options) {
    this._group = group;
    this._options = options || {};
    this._listeners = {};
    this._node = null;
    this._root = null;
    this._inputs = null;
    this._touched = { number: false, expiry: false, cvc: false };
    this._destroyed = false;
    this._id = "emu-card-" + ++uid;
    this._state = { empty: true, complete: false, error: undefined, brand: "unknown" };
  }

  CardElement.prototype.on = function (event, handler) {
    (this._listeners[event] = this._listeners[event] || []).push(handler);
    return this;
  };
  CardElement.prototype.addEventListener = CardElement.prototype.on;
  CardElement.prototype.once = function (event, handler) {
    var self = this;
    function wrapped(payload) {
      self.off(event, wrapped);
      handler(payload);
    }
    return this.on(event, wrapped);
  };
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

  CardElement.prototype.mount = function (target) {
    if (this._destroyed) throw new Error("This Element has already been destroyed. Please create a new one.");
    var node = typeof target === "string" ? document.querySelector(target) : target;
    if (!node || !node.appendChild) {
      throw new Error("The selector you specified (" + String(target) + ") applies to no DOM elements that are currently on the page.");
    }
    if (this._node) this.unmount();
    this._node = node;
    node.classList.add("StripeElement", "StripeElement--empty");
    this._render();
    var self = this;
    setTimeout(function () {
      if (self._node) self._emit("ready", { elementType: "card" });
    }, 0);
    return this;
  };

  CardElement.prototype._render = function () {
    var self = this;
    var id = this._id;
    var root = document.createElement("div");
    root.setAttribute("data-stripe-emulator", "card");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", "Carte bancaire");
    root.style.cssText = CARD_STYLE.wrapper;

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
    this._inputs = { number: number, expiry: expiry, cvc: cvc };
    this._applyDisabled();

    number.addEventListener("input", function () {
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
      self._update();
    });
    expiry.addEventListener("input", function (event) {
      var d = digits(expiry.value).slice(0, 4);
      if (d.length === 1 && d > "1") d = "0" + d;
      var deleting = event && event.inputType && event.inputType.indexOf("delete") === 0;
      expiry.value = d.length >= 2 && !(deleting && d.length === 2) ? d.slice(0, 2) + " / " + d.slice(2) : d;
      self._update();
    });
    cvc.addEventListener("input", function () {
      cvc.value = digits(cvc.value).slice(0, 4);
      self._update();
    });
    ["number", "expiry", "cvc"].forEach(function (name) {
      var input = self._inputs[name];
      input.addEventListener("blur", function () {
        self._touched[name] = true;
        self._update();
      });
    });
    root.addEventListener("focusin", function (event) {
      var target = event.target;
      if (target && target.style) target.style.cssText = CARD_STYLE.input + CARD_STYLE.focus;
      if (!root.contains(event.relatedTarget)) {
        self._node && self._node.classList.add("StripeElement--focus");
        self._emit("focus", { elementType: "card" });
      }
    });
    root.addEventListener("focusout", function (event) {
      self._paint();
      if (!root.contains(event.relatedTarget)) {
        self._node && self._node.classList.remove("StripeElement--focus");
        self._emit("blur", { elementType: "card" });
      }
    });
    root.addEventListener("keydown", function (event) {
      if (event.key === "Escape") self._emit("escape", { elementType: "card" });
    });
    this._root = root;
    this._node.appendChild(root);
  };

  CardElement.prototype._applyDisabled = function () {
    if (!this._inputs) return;
    var disabled = !!this._options.disabled;
    this._inputs.number.disabled = disabled;
    this._inputs.expiry.disabled = disabled;
    this._inputs.cvc.disabled = disabled;
  };

  /** Reads the fields, validates them like Stripe, and emits a change event. */
  CardElement.prototype._evaluate = function () {
    var inputs = this._inputs;
    var number = digits(inputs.number.value);
    var exp = digits(inputs.expiry.value);
    var cvc = digits(inputs.cvc.value);
    var brand = brandOf(number);
    var numberLength = brand === "amex" ? 15 : 16;
    var cvcLength = brand === "amex" ? 4 : 3;
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
      number.length === numberLength &&
      luhn(number) &&
      exp.length === 4 &&
      !errors.expiry &&
      cvc.length === cvcLength;
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
    if (!this._inputs) return;
    var state = this._evaluate();
    var self = this;
    ["number", "expiry", "cvc"].forEach(function (name) {
      var input = self._inputs[name];
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
    if (this._root && this._root.contains(document.activeElement)) document.activeElement.blur();
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
      this._node.classList.remove("StripeElement", "StripeElement--empty", "StripeElement--focus", "StripeElement--complete", "StripeElement--invalid");
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
  // Elements group and the Stripe object

  function Elements(stripe, options) {
    this._stripe = stripe;
    this._options = options || {};
    this._elements = {};
  }
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
  Elements.prototype.getElement = function (typeOrComponent) {
    var type = typeof typeOrComponent === "string" ? typeOrComponent : typeOrComponent && typeOrComponent.__elementType;
    return (type && this._elements[type]) || null;
  };
  Elements.prototype._forget = function (element) {
    for (var k in this._elements) if (this._elements[k] === element) delete this._elements[k];
  };
  Elements.prototype.update = function (options) {
    for (var k in options || {}) this._options[k] = options[k];
  };
  Elements.prototype.fetchUpdates = function () {
    return Promise.resolve({});
  };
  Elements.prototype.submit = function () {
    return Promise.resolve({});
  };

  function unsupported(name) {
    return function () {
      return Promise.resolve({
        error: { type: "invalid_request_error", message: name + " n'est pas disponible dans l'émulateur Stripe." },
      });
    };
  }

  function piIdFromSecret(clientSecret) {
    var match = /^(pi_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(String(clientSecret || ""));
    return match ? match[1] : null;
  }

  function billingParams(details) {
    if (!details) return undefined;
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

  function StripeInstance(publishableKey, options) {
    this._key = publishableKey;
    this._options = options || {};
    this._wrappers = [];
    this._appInfo = null;
  }

  StripeInstance.prototype.elements = function (options) {
    return new Elements(this, options);
  };
  StripeInstance.prototype._registerWrapper = function (wrapper) {
    this._wrappers.push(wrapper);
  };
  StripeInstance.prototype.registerAppInfo = function (info) {
    this._appInfo = info;
  };

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
      var code = state.number.length < (state.brand === "amex" ? 15 : 16) ? "incomplete_number" : digits(card._inputs.expiry.value).length < 4 ? "incomplete_expiry" : "incomplete_cvc";
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

  StripeInstance.prototype.createPaymentMethod = function (typeOrData, element, data) {
    // Both signatures: createPaymentMethod({ type, card, billing_details }) and
    // the older createPaymentMethod('card', cardElement, { billing_details }).
    var params = typeof typeOrData === "string" ? { type: typeOrData, card: element, billing_details: data && data.billing_details } : typeOrData || {};
    if (params.type !== "card") {
      return Promise.resolve({ error: { type: "invalid_request_error", message: "Seul le type 'card' est pris en charge." } });
    }
    return this._createCardPaymentMethod(params.card, params.billing_details, params.metadata);
  };

  StripeInstance.prototype.confirmCardPayment = function (clientSecret, data) {
    var self = this;
    var piId = piIdFromSecret(clientSecret);
    if (!piId) {
      return Promise.resolve({
        error: { type: "invalid_request_error", code: "invalid_client_secret", message: "Client secret invalide." },
      });
    }
    var pm = data && data.payment_method;
    var pmPromise;
    if (typeof pm === "string") pmPromise = Promise.resolve({ id: pm });
    else if (pm && pm.card) {
      pmPromise = self._createCardPaymentMethod(pm.card, pm.billing_details).then(function (r) {
        if (r.error) throw { stripeError: r.error };
        return r.paymentMethod;
      });
    } else pmPromise = Promise.resolve(null);
    return pmPromise
      .then(function (paymentMethod) {
        var params = { client_secret: clientSecret };
        if (paymentMethod) params.payment_method = paymentMethod.id;
        if (data && data.setup_future_usage) params.setup_future_usage = data.setup_future_usage;
        return request(self._key, "POST", "/v1/payment_intents/" + piId + "/confirm", params);
      })
      .then(
        function (result) {
          return result.error ? { error: result.error } : { paymentIntent: result.data };
        },
        function (failure) {
          if (failure && failure.stripeError) return { error: failure.stripeError };
          throw failure;
        },
      );
  };

  StripeInstance.prototype.retrievePaymentIntent = function (clientSecret) {
    var piId = piIdFromSecret(clientSecret);
    if (!piId) return Promise.resolve({ error: { type: "invalid_request_error", message: "Client secret invalide." } });
    return request(this._key, "GET", "/v1/payment_intents/" + piId, { client_secret: clientSecret }).then(function (result) {
      return result.error ? { error: result.error } : { paymentIntent: result.data };
    });
  };

  StripeInstance.prototype.handleCardAction = function (clientSecret) {
    return this.retrievePaymentIntent(clientSecret);
  };
  StripeInstance.prototype.createToken = unsupported("createToken");
  StripeInstance.prototype.createSource = unsupported("createSource");
  StripeInstance.prototype.confirmPayment = unsupported("confirmPayment");
  StripeInstance.prototype.confirmSetup = unsupported("confirmSetup");
  StripeInstance.prototype.confirmCardSetup = unsupported("confirmCardSetup");
  StripeInstance.prototype.paymentRequest = function () {
    return { canMakePayment: function () { return Promise.resolve(null); }, on: function () {}, show: function () {} };
  };

  function Stripe(publishableKey, options) {
    if (typeof publishableKey !== "string" || publishableKey === "") {
      throw new Error("Please call Stripe() with your publishable key. You used an empty string.");
    }
    return new StripeInstance(publishableKey, options);
  }
  // @stripe/stripe-js compares this with the release train it expects.
  Stripe.version = "endive";
  Stripe.__emulator = true;
  window.Stripe = Stripe;
})();
