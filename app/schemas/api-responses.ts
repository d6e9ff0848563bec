import { z } from "zod";
import { CARRIERS } from "~/lib/carriers";
import { SALE_WITHOUT_PACK } from "~/lib/packs";
import { EMAIL_KINDS, EMAIL_STATUSES } from "~/lib/email-kinds";
import { SESSION_ID_PATTERN } from "~/lib/ids";
import { SUBSCRIPTION_STATUSES } from "~/lib/subscription-status";
import { CONTACT_STATUSES, FULFILMENT_STATUSES, PAYMENT_STATUSES, REFUND_STATUSES } from "~/lib/statuses";
import { AUDIT_ACTIONS } from "~/lib/audit";

/**
 * Zod schemas of the JSON API's RESPONSES (the request bodies are the forms' schemas in
 * app/schemas/* and the payment service). They describe what productToApi, orderToApi,
 * toApiCartItems, getPublicOrder, listUsers... return, feed the OpenAPI document
 * (GET /api/openapi.json) and are checked against real responses by the contract tests.
 *
 * Objects are strict: a field that is not documented here (a password hash, say) makes a
 * response invalid.
 */

/** Money: a decimal string with two decimals, "25.90". */
const moneySchema = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ description: "Montant en euros, chaîne décimale à deux décimales", examples: ["25.90"] });

/** A UTC ISO 8601 timestamp, "2026-03-05T09:30:00.000Z". */
const isoDateSchema = z.iso.datetime().meta({ description: "Date ISO 8601 (UTC)", examples: ["2026-03-05T09:30:00.000Z"] });

const id = z.number().int().positive();
const nullableText = z.string().nullable();
const count = z.number().int().nonnegative();

/** Every error answer of the API (4xx and 5xx), the ApiError component of the OpenAPI document. */
export const apiErrorSchema = z
  .looseObject({
    error: z.string().describe("Message en français, lisible par une personne"),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).describe("Détail par champ (vide si sans objet)"),
    code: z
      .string()
      .optional()
      .describe(
        "Code machine de certaines erreurs : paiement (subscription_exists, order_not_found...), connexion avec double authentification (totp_required, invalid_code)",
      ),
  })
  .describe("Erreur de l'API (composant ApiError)");

// ---------------------------------------------------------------------------------------------
// Catalogue

/** productToApi: GET /api/products and GET /api/products/{id}. */
export const productResponseSchema = z.strictObject({
  id,
  name: z.string(),
  images: z.array(z.string()).describe("Adresses des images (chemins du site ou https://)"),
  price: moneySchema,
  originalPrice: moneySchema.nullable().describe("Prix barré, ou null"),
  sku: z.string(),
  category: z.string(),
  stock: z.number().int().min(0),
  saleWithoutPack: z
    .enum(SALE_WITHOUT_PACK)
    .describe("Sans pack en vente : `unit` vendu à l'unité au prix du produit, `not_sold` non vendu"),
  packs: z
    .array(
      z.strictObject({
        id,
        name: z.string(),
        description: z.string(),
        masks: z.number().int().min(1).describe("Nombre de masques du pack"),
        price: moneySchema,
        originalPrice: moneySchema
          .nullable()
          .describe(
            "Prix barré, seulement s'il est le prix le plus bas des 30 jours précédant la réduction (article L112-1-1 du Code de la consommation), sinon null",
          ),
        popular: z.boolean(),
        trial: z.boolean().describe("Pack d'essai : 1 par commande, une fois par adresse email, jamais en abonnement"),
      }),
    )
    .describe("Les packs en vente, dans leur ordre (vide : vendu à l'unité ou non vendu)"),
});

export const productListResponseSchema = z.array(productResponseSchema);

/** PUT /api/products/{id}: the product after the update, and what the admin should fix. */
export const adminProductResponseSchema = productResponseSchema.extend({
  crossedOutWarnings: z
    .array(z.string())
    .describe(
      "Prix barrés non conformes des packs en vente (pas le prix le plus bas des 30 jours précédant la réduction) : ils ne sont pas affichés en boutique",
    ),
});

// ---------------------------------------------------------------------------------------------
// Cart

const cartIdSchema = z.uuid().describe("Identifiant du panier du visiteur (cookie signé `cart`)");

/** toApiCartItems: one cart line. */
const cartItemResponseSchema = z.strictObject({
  id: id.describe("Identifiant de la ligne (PUT/DELETE /api/cart/{id})"),
  cartId: cartIdSchema.nullable(),
  userId: cartIdSchema
    .nullable()
    .describe("Le `userId` de la spécification : ici l'identifiant du panier du visiteur (une chaîne), égal à cartId"),
  productId: id,
  packId: id.describe("Pack choisi (1 : 3 masques, 2 : 6 + 2 offerts, 3 : 9 + 3 offerts)"),
  quantity: z.number().int().min(1),
  variantName: nullableText,
  variantPrice: moneySchema,
  variantOriginalPrice: moneySchema.nullable(),
  product: z.strictObject({ id, name: z.string(), images: z.array(z.string()), price: moneySchema }),
});

export const cartItemsResponseSchema = z.array(cartItemResponseSchema);

/** POST /api/cart. */
export const cartAddResponseSchema = z.strictObject({ cartId: cartIdSchema, items: cartItemsResponseSchema });

// ---------------------------------------------------------------------------------------------
// Orders

const fulfilmentStatus = z.enum(FULFILMENT_STATUSES).describe("Préparation : pending, processing, shipped, delivered");
const paymentStatus = z.enum(PAYMENT_STATUSES).describe("Paiement : unpaid, paid, failed, refunded, partially_refunded");
const carrier = z
  .enum(CARRIERS)
  .nullable()
  .describe("Transporteur du numéro de suivi : colissimo, chronopost, mondial_relay ou dpd");
const trackingUrl = z
  .string()
  .nullable()
  .describe("Page de suivi du colis sur le site du transporteur (numéro et transporteur connus)");

/** withdrawalToApi: an order's online withdrawal (/retractation), in the administrator's views of the order. */
const withdrawalResponseSchema = z
  .strictObject({
    requestedAt: isoDateSchema.describe("Date et heure de la demande (UTC)"),
    reason: nullableText.describe("Motif indiqué par le client (facultatif)"),
    email: z.string().describe("Adresse email saisie par le client"),
    refundDeadline: isoDateSchema.describe(
      "Date limite du remboursement : 14 jours après la demande (article L. 221-24 du Code de la consommation)",
    ),
    daysLeft: z
      .number()
      .int()
      .describe(
        "Jours restants avant la date limite, en jours calendaires (heure de Paris) : 0 le dernier jour, négatif une fois dépassée",
      ),
  })
  .nullable()
  .describe("Rétractation demandée en ligne (null : aucune)");

const closureSchema = z
  .enum(["refunded", "withdrawn"])
  .nullable()
  .describe(
    "État final de la commande, seul à compter : « refunded » remboursée en totalité, « withdrawn » rétractation enregistrée ; elle ne passe plus par les étapes d'expédition (409 order_closed). null tant qu'elle suit son cours",
  );

/**
 * toApiOrderView: GET /api/orders/{id}, POST /api/orders and a token holder's PUT /api/orders/{id}.
 * The order number alone gives the progress, the items, the total, the postcode and the city;
 * the name, the street and the email are null unless the request proves it owns the order.
 */
export const publicOrderResponseSchema = z.strictObject({
  id: id.describe("Numéro de commande aléatoire à 9 chiffres"),
  status: fulfilmentStatus,
  paymentStatus,
  createdAt: isoDateSchema,
  access: z
    .enum(["owner", "public"])
    .describe(
      "owner : la requête prouve qu'elle possède la commande (navigateur qui l'a passée, jeton, administrateur) ; public : sans nom, rue ni email",
    ),
  customerName: nullableText.describe("Nom du destinataire (null sans preuve de propriété)"),
  customerEmail: nullableText.describe("Email de la commande (null sans preuve de propriété)"),
  shippingAddress: nullableText.describe("Rue (null sans preuve de propriété)"),
  shippingAddress2: nullableText.describe("Complément d'adresse (null s'il n'y en a pas, ou sans preuve de propriété)"),
  shippingPostalCode: nullableText,
  shippingCity: nullableText,
  shippingCountry: nullableText,
  shippingPhone: nullableText.describe(
    "Téléphone pour le transporteur, au format +33612345678 (null s'il n'y en a pas, ou sans preuve de propriété)",
  ),
  subtotal: moneySchema,
  shipping: moneySchema.describe('Frais de port (offerts : "0.00")'),
  promotionCode: nullableText.describe("Code promo de la commande (null sans code)"),
  discount: moneySchema.describe('Remise du code promo, TTC, déduite du total ("0.00" sans code)'),
  total: moneySchema,
  trackingNumber: nullableText,
  trackingCarrier: carrier,
  trackingCarrierName: nullableText.describe("Nom du transporteur (Colissimo, Chronopost, Mondial Relay, DPD)"),
  trackingUrl: trackingUrl,
  progressLabel: z
    .string()
    .describe(
      "Où en est la commande : l'étape de préparation une fois payée, « Paiement non reçu : cette commande n'est pas encore payée. » avant le paiement, « Remboursée », « Rétractation enregistrée »",
    ),
  closure: closureSchema,
  items: z.array(
    z.strictObject({
      id,
      productId: id.nullable(),
      packId: id.nullable().describe("Pack commandé (1 : 3 masques d'essai, 2 : 6 + 2 offerts, 3 : 9 + 3 offerts)"),
      quantity: z.number().int().min(1),
      price: moneySchema.describe("Prix unitaire"),
      product: z.strictObject({ name: z.string(), variantName: nullableText }),
    }),
  ),
  withdrawal: withdrawalResponseSchema
    .optional()
    .describe("Rétractation demandée en ligne (null : aucune) ; pour une session administrateur seulement"),
});

/** POST /api/orders: the order as its owner sees it, and its token, shown this once. */
export const createdOrderResponseSchema = publicOrderResponseSchema.extend({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .describe(
      "Jeton de la commande (32 octets aléatoires en base64url), donné une seule fois : il prouve la propriété de la commande (en-tête X-Order-Token, ?token= ou champ token des paiements). Le serveur n'en garde que l'empreinte SHA-256.",
    ),
});

/** orderToApi: GET /api/orders (admin) and PUT /api/orders/{id}. */
export const adminOrderResponseSchema = z.strictObject({
  id,
  createdAt: isoDateSchema,
  status: fulfilmentStatus,
  paymentStatus,
  subtotal: moneySchema,
  shipping: moneySchema,
  total: moneySchema,
  refunded: moneySchema.describe("Montant remboursé (remboursements effectués), « 0.00 » sans remboursement"),
  userId: id.nullable(),
  customerName: z.string(),
  customerEmail: nullableText,
  trackingNumber: nullableText,
  trackingCarrier: carrier,
  trackingUrl: trackingUrl,
  shippingAddress: nullableText,
  shippingAddress2: nullableText.describe("Complément d'adresse"),
  shippingPostalCode: nullableText,
  shippingCity: nullableText,
  shippingCountry: nullableText,
  shippingPhone: nullableText.describe("Téléphone pour le transporteur, au format +33612345678"),
  isSubscription: z.boolean(),
  stripeSubscriptionId: nullableText,
  subscriptionId: id.nullable().describe("Abonnement de la commande (GET /api/admin/subscriptions/{id}), s'il y en a un"),
  renewalNumber: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe(
      "1, 2... pour une commande de renouvellement d'abonnement (« Renouvellement n°1 ») ; null pour toute autre commande",
    ),
  withdrawal: withdrawalResponseSchema,
  closure: closureSchema,
});

/** A page of an API list: its items under `key`, the limit applied, and the cursor of the next page. */
function pageResponseSchema<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({
    [key]: z.array(item),
    limit: z.number().int().describe("Le nombre d'éléments demandé (50 par défaut, 200 au plus)"),
    nextCursor: z
      .string()
      .nullable()
      .describe('À passer en `cursor` pour la page suivante (aussi dans l\'en-tête `Link`, rel="next") ; null : dernière page'),
  } as { [P in K]: z.ZodArray<T> } & { limit: z.ZodNumber; nextCursor: z.ZodNullable<z.ZodString> });
}

export const adminOrderListResponseSchema = pageResponseSchema("orders", adminOrderResponseSchema);

/** refundToApi: one refund of an order. */
const refundSchema = z.strictObject({
  id,
  createdAt: isoDateSchema,
  amount: moneySchema,
  reason: z.string(),
  status: z
    .enum(REFUND_STATUSES)
    .describe(
      "pending : en cours chez Stripe ; succeeded : effectué ; failed : refusé ou échoué (le montant peut être remboursé à nouveau)",
    ),
  by: z
    .string()
    .describe(
      "Qui l'a fait : le nom de l'administrateur, ou « Stripe » pour un remboursement fait depuis le tableau de bord Stripe",
    ),
  stripeRefundId: nullableText.describe("Le remboursement chez Stripe (re_…)"),
  creditNoteNumber: nullableText.describe("Le numéro de l'avoir émis pour ce remboursement (A2026-000001), une fois effectué"),
  failureMessage: nullableText,
});

/** GET /api/admin/orders/{id}/refunds. */
const remainingSchema = moneySchema.describe(
  "Ce qui peut encore être remboursé (total moins les remboursements effectués ou en cours), « 0.00 » pour une commande non payée",
);

/** GET /api/admin/orders/{id}/refunds. */
export const orderRefundsResponseSchema = z.strictObject({
  order: adminOrderResponseSchema,
  remaining: remainingSchema,
  refunds: z.array(refundSchema),
});

/** POST /api/admin/orders/{id}/refunds: the refund, and its order after it. */
export const refundCreatedResponseSchema = refundSchema.extend({
  replayed: z
    .boolean()
    .describe("true : cette clé avait déjà servi, c'est le remboursement d'alors (aucun nouveau remboursement)"),
  order: adminOrderResponseSchema,
  remaining: remainingSchema,
});

/** PUT /api/orders/{id}: the administrator gets the back office's view, a token holder the owner's view. */
export const orderUpdateResponseSchema = z.union([adminOrderResponseSchema, publicOrderResponseSchema]);

/** orderItemToApi: GET /api/orders/{id}/items (admin). */
const orderItemResponseSchema = z.strictObject({
  id,
  productId: id.nullable(),
  quantity: z.number().int().min(1),
  price: moneySchema.describe("Prix unitaire"),
  product: z.strictObject({ name: z.string(), variantName: nullableText, image: nullableText }),
});

export const orderItemListResponseSchema = z.array(orderItemResponseSchema);

// ---------------------------------------------------------------------------------------------
// Payment

const paymentIntentStatus = z.enum([
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
  "processing",
  "requires_capture",
  "canceled",
  "succeeded",
]);

const subscriptionStatus = z.enum([
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "paused",
]);

/** createOrderSubscription: POST /api/create-subscription. */
export const subscriptionStartResponseSchema = z.strictObject({
  orderId: id,
  clientSecret: z.string().describe("Secret client de la première facture, pour Stripe.js"),
  subscriptionId: z.string(),
  setupFee: moneySchema.describe("Premier prélèvement, aujourd'hui"),
  recurringAmount: moneySchema.describe("Montant prélevé toutes les 4 semaines à partir du 30e jour"),
  status: subscriptionStatus,
  paymentIntentStatus: paymentIntentStatus.nullable(),
  message: nullableText,
});

/** POST /api/payments/start: one-off payment, already paid, or the subscription answer. */
export const paymentStartResponseSchema = z.union([
  z.strictObject({ paid: z.literal(true), orderId: id }),
  z.strictObject({
    paid: z.literal(false),
    orderId: id,
    clientSecret: z.string(),
    paymentIntentId: z.string(),
    amountCents: z.number().int(),
    amount: moneySchema,
    status: paymentIntentStatus,
  }),
  subscriptionStartResponseSchema.extend({ paid: z.literal(false) }),
]);

/** POST /api/payments/confirm. */
export const paymentConfirmResponseSchema = z.strictObject({ paid: z.boolean(), orderId: id, paymentStatus });

/** POST /api/attach-payment-method. */
export const attachPaymentMethodResponseSchema = z.strictObject({
  attached: z.literal(true),
  subscriptionId: z.string(),
  paymentMethodId: z.string(),
});

/** POST /api/stripe/webhook. */
export const webhookResponseSchema = z.strictObject({
  received: z.literal(true),
  type: z.string().describe("Type de l'événement Stripe"),
  outcome: z.enum([
    "duplicate",
    "order_paid",
    "already_paid",
    "payment_failed",
    "subscription_ended",
    "order_refunded",
    "renewal_recorded",
    "already_recorded",
    "renewal_failed",
    "ignored",
  ]),
});

/**
 * What Stripe posts to the webhook (documentation only: the route verifies the raw body's
 * signature, then reads the event with Stripe's SDK).
 */
export const stripeEventDocSchema = z.looseObject({
  id: z.string().describe("evt_..."),
  type: z.string().describe("payment_intent.succeeded, invoice.paid, customer.subscription.deleted..."),
  data: z.looseObject({ object: z.looseObject({}) }),
});

// ---------------------------------------------------------------------------------------------
// Contact

/** A stored contact request (admin lists, demo list). */
export const contactRequestResponseSchema = z.strictObject({
  id,
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(CONTACT_STATUSES).describe("non_lu, lu, en_cours, traite"),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
});

export const contactRequestListResponseSchema = z.array(contactRequestResponseSchema);
export const contactRequestPageResponseSchema = pageResponseSchema("contacts", contactRequestResponseSchema);

/** POST /api/contact. */
export const contactCreatedResponseSchema = z.strictObject({
  success: z.literal(true),
  id,
  status: z.enum(CONTACT_STATUSES),
  createdAt: isoDateSchema,
});

/** POST /api/withdrawals: the one neutral answer, whether an order matched or not. */
export const withdrawalAcceptedResponseSchema = z.strictObject({
  message: z
    .string()
    .describe(
      "Toujours le même texte, qu'une commande corresponde ou non : « Si une commande correspond à ces informations, votre demande de rétractation est enregistrée et un accusé de réception vous est envoyé par e-mail dans les minutes qui suivent. »",
    ),
  ifNoAcknowledgement: z
    .string()
    .describe(
      "Que faire sans accusé de réception après quelques minutes : vérifier les courriers indésirables, le numéro et l'e-mail saisis, sinon écrire depuis la page Contact",
    ),
});

// ---------------------------------------------------------------------------------------------
// Administration

const adminUser = z.strictObject({
  id,
  username: z.string(),
  email: z.string(),
  firstName: nullableText,
  lastName: nullableText,
  isAdmin: z.literal(true),
});

/** GET /api/admin/session (authenticated). */
export const adminSessionResponseSchema = z.strictObject({ authenticated: z.literal(true), user: adminUser });

/** POST /api/admin/login (success; failures are errors 401/429). */
export const adminLoginResponseSchema = z.strictObject({ success: z.literal(true), message: z.string(), user: adminUser });

/** POST /api/admin/logout. */
export const adminLogoutResponseSchema = z.strictObject({ success: z.literal(true), message: z.string() });

/** listAdminSessions: one of the signed-in administrator's open sessions (never its cookie token). */
const adminSessionItemSchema = z.strictObject({
  id: z
    .string()
    .regex(SESSION_ID_PATTERN)
    .describe("Identifiant public de la session (DELETE /api/admin/sessions/{id}), distinct du jeton du cookie"),
  current: z.boolean().describe("true pour la session de cette requête"),
  createdAt: isoDateSchema,
  lastSeenAt: isoDateSchema.describe("Dernière activité (mise à jour au plus une fois par minute)"),
  expiresAt: isoDateSchema.describe("Fin de la session : 12 heures après la connexion"),
  userAgent: nullableText.describe("User-Agent envoyé à la connexion"),
  device: z.string().describe("Navigateur et système, résumés (« Chrome sur Linux »)"),
  address: nullableText.describe("Adresse du client à la connexion"),
});

/** GET /api/admin/sessions. */
export const adminSessionListResponseSchema = z.array(adminSessionItemSchema);

/** listUsers / createUser: a user without any password data. */
export const userResponseSchema = z.strictObject({
  id,
  username: z.string(),
  email: z.string(),
  firstName: nullableText,
  lastName: nullableText,
  address: nullableText,
  city: nullableText,
  postalCode: nullableText,
  country: nullableText,
  phone: nullableText,
  isAdmin: z.boolean(),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
});

export const userListResponseSchema = pageResponseSchema("users", userResponseSchema);

/** getSettings: the public site settings. */
/** GET and PATCH /api/settings/notifications. */
export const notificationSettingsResponseSchema = z.strictObject({
  notifyWithdrawal: z
    .boolean()
    .describe("Email à la boutique pour chaque demande de rétractation (avec la date limite du remboursement)"),
  notifyRenewalProblem: z
    .boolean()
    .describe("Email pour un renouvellement refusé ou en attente de l'authentification du client (3-D Secure)"),
  notifyStripeRefund: z.boolean().describe("Email pour un remboursement fait depuis le tableau de bord Stripe"),
  notifyContact: z.boolean().describe("Email pour une nouvelle demande de contact"),
  notifyEmailFailed: z.boolean().describe("Email pour un email à un client refusé à chacune de ses tentatives"),
  notifyDailySummary: z
    .boolean()
    .describe("Regroupe ces emails en un résumé quotidien, envoyé à 8 h (heure de Paris) les jours où il y a un événement"),
});

export const settingsResponseSchema = z.strictObject({
  siteName: z.string(),
  siteEmail: z.string(),
  siteDescription: z.string(),
  siteAddress: z.string(),
  sitePhone: z.string(),
  siteFooterText: z.string(),
  legalName: z.string().describe("Raison sociale du vendeur, sur les factures"),
  siret: z.string().describe("SIRET du vendeur (14 chiffres ; le SIREN en est les 9 premiers)"),
  vatNumber: z
    .string()
    .describe(
      "Numéro de TVA intracommunautaire du vendeur, sans espaces (code du pays puis 2 à 13 caractères ; FR : clé puis SIREN)",
    ),
  legalForm: z
    .string()
    .describe("Forme juridique (« SAS », « société par actions simplifiée »...) ; chaîne vide si non renseignée"),
  shareCapital: z.string().describe("Capital social, « 10 000 € » ; chaîne vide si non renseigné"),
  rcsCity: z.string().describe("Ville du greffe du RCS ; chaîne vide si non renseignée"),
  rcsNumber: z.string().describe("Numéro RCS, c'est-à-dire le SIREN (« 921 458 303 ») ; chaîne vide si non renseigné"),
  publicationDirector: z
    .string()
    .describe("Directeur ou directrice de la publication (mentions légales) ; chaîne vide si non renseigné"),
  publicationDirectorRole: z.string().describe("Sa fonction (facultative)"),
  hostName: z.string().describe("Nom de l'hébergeur du site ; chaîne vide si non renseigné"),
  hostAddress: z.string().describe("Adresse de l'hébergeur, une ligne par ligne ; chaîne vide si non renseignée"),
  hostPhone: z.string().describe("Téléphone de l'hébergeur ; chaîne vide si non renseigné"),
  mediatorName: z
    .string()
    .describe("Médiateur de la consommation (Code de la consommation L616-1) ; chaîne vide si non renseigné"),
  mediatorAddress: z.string().describe("Adresse postale du médiateur, une ligne par ligne"),
  mediatorUrl: z.string().describe("Site web du médiateur (https://...) ; chaîne vide si non renseigné"),
  defaultCarrier: z.enum(CARRIERS).describe("Transporteur des numéros de suivi saisis sans transporteur"),
  trialOfferEndsAt: z.iso
    .datetime()
    .nullable()
    .describe("Fin de l'offre d'essai (ISO 8601, UTC) : le bandeau de la fiche produit compte jusqu'à elle ; null sans offre"),
  emailContentRetentionDays: z
    .number()
    .int()
    .min(7)
    .max(3650)
    .describe("Jours pendant lesquels le contenu (HTML, texte) d'un email envoyé est gardé ; sa trace reste ensuite"),
});

// ---------------------------------------------------------------------------------------------
// Emails (the outbox, seen by the administrator)

const NOT_RENDERED = "null tant que l'email n'a pas été rendu (à sa première tentative d'envoi)";

const emailSummaryShape = {
  id,
  kind: z.enum(EMAIL_KINDS).describe("Événement qui a causé l'email"),
  status: z
    .enum(EMAIL_STATUSES)
    .describe(
      "pending : en attente de sa (prochaine) tentative ; sending : tentative en cours ; sent : envoyé (ou déposé dans la boîte de démo) ; failed : toutes les tentatives ont échoué ; canceled : non envoyé, sa cause ne tenait plus au moment de partir (un rappel de commande payée entre-temps), la raison dans lastError",
    ),
  to: z.string().describe("Adresse du destinataire"),
  subject: nullableText.describe(`Objet ; ${NOT_RENDERED}`),
  orderId: id.nullable().describe("Commande concernée, s'il y en a une"),
  contactRequestId: id.nullable().describe("Demande de contact concernée, s'il y en a une"),
  attempts: z.number().int().min(0).describe("Tentatives faites depuis la mise en file (remis à 0 par un renvoi)"),
  lastError: nullableText.describe(
    "Erreur de la dernière tentative échouée (gardée jusqu'à la tentative suivante), ou pourquoi un email canceled n'est pas parti",
  ),
  nextAttemptAt: isoDateSchema.describe("Quand la prochaine tentative peut partir"),
  sentAt: isoDateSchema.nullable(),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
};

/** emailSummaryToApi: one email of GET /api/admin/emails (without its content). */
const emailSummaryResponseSchema = z.strictObject(emailSummaryShape);

const emailCount = z.number().int().min(0);

/** GET /api/admin/emails: one page of the outbox, newest first (by cursor), and the number of emails per status. */
export const emailListResponseSchema = pageResponseSchema("emails", emailSummaryResponseSchema).extend({
  counts: z
    .strictObject({ pending: emailCount, sending: emailCount, sent: emailCount, failed: emailCount, canceled: emailCount })
    .describe("Nombre d'emails par statut (tous filtres confondus)"),
});

/** POST /api/admin/cart-reminders/run (demo mode). */
export const cartRemindersRunResponseSchema = z.strictObject({
  queued: z.number().int().min(0).describe("Rappels mis en file d'envoi par cet appel"),
});

/** emailDetailToApi: GET /api/admin/emails/{id} and POST /api/admin/emails/{id}/resend. */
export const emailResponseSchema = z.strictObject({
  ...emailSummaryShape,
  transport: z
    .enum(["smtp", "demo"])
    .nullable()
    .describe("Comment il est parti : smtp, ou demo (boîte aux lettres de la boutique en mode démo)"),
  messageId: nullableText.describe("Message-ID donné par le serveur SMTP"),
  rendered: z
    .boolean()
    .describe("false tant que le contenu n'a pas été rendu (il l'est à la première tentative, puis gardé tel quel)"),
  contentPurgedAfterDays: z
    .number()
    .int()
    .nullable()
    .describe(
      "Le contenu (HTML, texte) a été supprimé après ce nombre de jours (conservation, réglée dans les paramètres) ; null tant qu'il est gardé. L'enregistrement de l'envoi (destinataire, date, objet) reste.",
    ),
  html: nullableText.describe(
    `Partie HTML telle qu'envoyée ; ${NOT_RENDERED} ; null aussi une fois le contenu supprimé (conservation)`,
  ),
  text: nullableText.describe(
    `Partie texte telle qu'envoyée ; ${NOT_RENDERED} ; null aussi une fois le contenu supprimé (conservation)`,
  ),
  headers: z
    .record(z.string(), z.string())
    .describe("En-têtes ajoutés à l'email, tels qu'envoyés (List-Unsubscribe et List-Unsubscribe-Post d'un rappel) ; {} sinon"),
  attachments: z.array(
    z.strictObject({
      filename: z.string(),
      contentType: z.string(),
      size: z.number().int().min(0).describe("Taille en octets"),
      url: z.string().describe("Téléchargement (session administrateur)"),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------
// Subscriptions (admin)

const nullableDate = isoDateSchema.nullable();

/** subscriptionSummaryToApi: one subscription of GET /api/admin/subscriptions. */
const subscriptionSummaryShape = {
  id,
  customerName: z.string().describe("Nom du client (« Client inconnu » s'il n'en a pas donné)"),
  customerEmail: nullableText,
  packId: id.nullable(),
  pack: z.string().describe("Nom du pack, tel qu'il a été souscrit"),
  quantity: z.number().int().min(1),
  amount: moneySchema.describe("Montant prélevé toutes les 4 semaines"),
  status: z
    .enum(SUBSCRIPTION_STATUSES)
    .describe("incomplete : premier paiement attendu ; active ; past_due : renouvellement impayé ; canceled : résilié"),
  startedAt: nullableDate.describe("Premier paiement"),
  nextRenewalAt: nullableDate.describe("Prochain renouvellement (fin de la période payée) ; null une fois résilié"),
  renewalCount: z.number().int().min(0).describe("Renouvellements payés"),
  cancelAtPeriodEnd: z.boolean().describe("Résiliation prévue à la fin de la période payée"),
  canceledAt: nullableDate,
  firstOrderId: id.nullable().describe("Commande de la souscription"),
  createdAt: isoDateSchema,
};

/** One subscription as the list and the detail show it (their examples). */
const subscriptionSummaryExample = {
  id: 12,
  customerName: "Camille Martin",
  customerEmail: "camille.martin@example.fr",
  packId: 2,
  pack: "6 masques + 2 offerts",
  quantity: 1,
  amount: "25.90",
  status: "active",
  startedAt: "2026-10-01T10:05:00.000Z",
  nextRenewalAt: "2026-11-28T10:05:00.000Z",
  renewalCount: 1,
  cancelAtPeriodEnd: false,
  canceledAt: null,
  firstOrderId: 123456789,
  createdAt: "2026-10-01T10:00:00.000Z",
};

/** GET /api/admin/subscriptions: one page of subscriptions, the most recent first. */
export const subscriptionListResponseSchema = pageResponseSchema("subscriptions", z.strictObject(subscriptionSummaryShape)).meta({
  examples: [
    {
      subscriptions: [
        {
          ...subscriptionSummaryExample,
        },
      ],
      limit: 50,
      nextCursor: null,
    },
  ],
});

const timelineKind = z
  .enum(["started", "first_order", "renewal", "payment_failed", "email", "cancel_scheduled", "canceled", "change"])
  .describe(
    "started : souscription ; first_order ; renewal : renouvellement payé ; payment_failed ; email ; cancel_scheduled : résiliation prévue ; canceled ; change : livraison sautée, pause, reprise, pack changé, réactivation (par le client ou par la boutique, avec sa raison)",
  );

/** subscriptionDetailToApi: GET /api/admin/subscriptions/{id} and POST /api/admin/subscriptions/{id}/cancel. */
export const subscriptionResponseSchema = z
  .strictObject({
    ...subscriptionSummaryShape,
    stripeSubscriptionId: z.string(),
    stripeCustomerId: nullableText,
    unpaidInvoiceId: nullableText.describe(
      "Facture de renouvellement impayée (lien de paiement envoyé au client), s'il y en a une",
    ),
    intervalWeeks: z.number().int().min(1).describe("Semaines entre deux renouvellements"),
    pause: z
      .strictObject({
        kind: z.enum(["skip", "pause"]).describe("skip : prochaine livraison sautée ; pause : pause de 1 à 3 cycles"),
        resumesAt: isoDateSchema.describe("Reprise des prélèvements chez Stripe (`pause_collection.resumes_at`)"),
      })
      .nullable()
      .describe("Livraison sautée ou pause en cours, sinon null"),
    shipping: z
      .strictObject({
        name: nullableText,
        address: nullableText,
        postalCode: nullableText,
        city: nullableText,
        country: nullableText,
      })
      .describe("Adresse de livraison des prochains renouvellements"),
    orders: z.array(
      z.strictObject({
        id,
        createdAt: isoDateSchema,
        paidAt: nullableDate,
        status: fulfilmentStatus,
        paymentStatus,
        total: moneySchema,
        renewalNumber: z.number().int().min(1).nullable().describe("null pour la commande de la souscription"),
        stripeInvoiceId: nullableText,
      }),
    ),
    emails: z.array(
      z.strictObject({
        id,
        kind: z.enum(EMAIL_KINDS),
        status: z.enum(EMAIL_STATUSES),
        orderId: id.nullable(),
        to: z.string(),
        createdAt: isoDateSchema,
        sentAt: nullableDate,
      }),
    ),
    timeline: z
      .array(
        z.strictObject({
          at: nullableDate,
          kind: timelineKind,
          label: z.string().describe("Libellé en français"),
          orderId: id.nullable(),
          emailId: id.nullable(),
          reason: z.string().nullable().describe("La raison donnée par la boutique pour un changement (`change`), sinon null"),
        }),
      )
      .describe("Ce qui est arrivé à l'abonnement, dans l'ordre des dates"),
  })
  .meta({
    examples: [
      {
        ...subscriptionSummaryExample,
        stripeSubscriptionId: "sub_1QxYz",
        stripeCustomerId: "cus_Q1a2b3",
        unpaidInvoiceId: null,
        intervalWeeks: 4,
        pause: null,
        shipping: { name: "Camille Martin", address: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "France" },
        orders: [
          {
            id: 123456789,
            createdAt: "2026-10-01T10:00:00.000Z",
            paidAt: "2026-10-01T10:05:00.000Z",
            status: "delivered",
            paymentStatus: "paid",
            total: "25.90",
            renewalNumber: null,
            stripeInvoiceId: null,
          },
          {
            id: 987654321,
            createdAt: "2026-10-31T10:05:00.000Z",
            paidAt: "2026-10-31T10:05:00.000Z",
            status: "pending",
            paymentStatus: "paid",
            total: "25.90",
            renewalNumber: 1,
            stripeInvoiceId: "in_1Qa",
          },
        ],
        emails: [
          {
            id: 41,
            kind: "renewal_receipt",
            status: "sent",
            orderId: 987654321,
            to: "camille.martin@example.fr",
            createdAt: "2026-10-31T10:05:00.000Z",
            sentAt: "2026-10-31T10:05:02.000Z",
          },
        ],
        timeline: [
          {
            at: "2026-10-01T10:00:00.000Z",
            kind: "first_order",
            label: "Première commande #123456789",
            orderId: 123456789,
            emailId: null,
            reason: null,
          },
          {
            at: "2026-10-01T10:05:00.000Z",
            kind: "started",
            label: "Abonnement souscrit (premier paiement)",
            orderId: null,
            emailId: null,
            reason: null,
          },
          {
            at: "2026-10-31T10:05:00.000Z",
            kind: "renewal",
            label: "Renouvellement n°1 payé : commande #987654321",
            orderId: 987654321,
            emailId: null,
            reason: null,
          },
        ],
      },
    ],
  });

// ---------------------------------------------------------------------------------------------
// Documentation

/** GET /api/openapi.json (its own shape is OpenAPI 3.1's). */
export const openApiDocumentResponseSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

// ---- A customer's personal data (services/customers/)

const auditLineSchema = z.strictObject({
  id,
  at: isoDateSchema,
  actor: z.string().describe("Nom d'utilisateur de l'administrateur, tel qu'il était"),
  actorId: id.nullable(),
  action: z.enum(AUDIT_ACTIONS),
  label: z.string().describe("Libellé en français"),
  customerId: id,
  details: z
    .looseObject({ stripe: z.looseObject({ customers: count, paymentIntents: count }) })
    .nullable()
    .describe("Pour un effacement : le nombre d'objets Stripe à effacer, puis effacés (jamais une valeur)"),
  detailsText: nullableText.describe("Les mêmes nombres, en français"),
});

const stripeErasureResultSchema = z.strictObject({
  customers: count,
  paymentIntents: count,
  paymentMethods: count,
  unknown: count.describe("Objets que Stripe ne connaît pas : rien à effacer"),
  unchangeable: count.describe("PaymentIntents que Stripe refuse de modifier (annulés)"),
});

const stripeErasureSchema = z
  .strictObject({
    status: z.enum(["pending", "done"]),
    customers: count.describe("Clients Stripe à effacer"),
    paymentIntents: count.describe("PaymentIntents à effacer"),
    attempts: count,
    lastAttemptAt: isoDateSchema.nullable(),
    nextAttemptAt: isoDateSchema.nullable().describe("Prochain essai, tant que c'est en attente"),
    lastError: nullableText.describe("Le genre de la dernière erreur de Stripe"),
    doneAt: isoDateSchema.nullable(),
    result: stripeErasureResultSchema.nullable(),
  })
  .nullable()
  .describe("L'effacement chez Stripe : en attente (la boutique réessaie) ou fait ; null avant tout effacement");

const shippingShape = {
  address: nullableText,
  address2: nullableText,
  postalCode: nullableText,
  city: nullableText,
  country: nullableText,
  phone: nullableText,
};

const issuedDocumentSchema = z.strictObject({ number: z.string(), issuedAt: isoDateSchema, total: moneySchema }).nullable();

/** customerDataToApi: GET /api/admin/customers/{id} and POST /api/admin/customers/{id}/erase. */
export const customerDataResponseSchema = z
  .strictObject({
    customer: z.strictObject({
      id,
      username: z.string(),
      email: z.string(),
      firstName: nullableText,
      lastName: nullableText,
      address: nullableText,
      postalCode: nullableText,
      city: nullableText,
      country: nullableText,
      phone: nullableText,
      isAdmin: z.boolean(),
      erased: z.boolean().describe("true une fois les données personnelles effacées"),
      createdAt: isoDateSchema,
      updatedAt: isoDateSchema,
    }),
    orders: z.array(
      z.strictObject({
        id,
        createdAt: isoDateSchema,
        paidAt: nullableDate,
        status: fulfilmentStatus,
        paymentStatus,
        subtotal: moneySchema,
        shippingCost: moneySchema,
        total: moneySchema,
        isSubscription: z.boolean(),
        subscriptionId: id.nullable(),
        renewalNumber: z.number().int().min(1).nullable(),
        customerEmail: nullableText,
        customerName: nullableText,
        customerFirstName: nullableText,
        customerLastName: nullableText,
        shipping: z.strictObject(shippingShape),
        trackingNumber: nullableText,
        termsVersion: nullableText,
        items: z.array(
          z.strictObject({
            productName: nullableText,
            variantName: nullableText,
            quantity: z.number().int(),
            unitPrice: moneySchema,
          }),
        ),
        invoice: issuedDocumentSchema,
        creditNote: issuedDocumentSchema,
      }),
    ),
    subscriptions: z.array(
      z.strictObject({
        id,
        status: z.enum(SUBSCRIPTION_STATUSES),
        cancelAtPeriodEnd: z.boolean(),
        productName: nullableText,
        variantName: nullableText,
        quantity: z.number().int(),
        amount: moneySchema,
        startedAt: nullableDate,
        currentPeriodEnd: nullableDate,
        canceledAt: nullableDate,
        renewalCount: z.number().int().min(0),
        firstOrderId: id.nullable(),
        customerEmail: nullableText,
        customerName: nullableText,
        shipping: z.strictObject({ name: nullableText, ...shippingShape }),
        createdAt: isoDateSchema,
      }),
    ),
    emails: z.array(
      z.strictObject({
        id,
        kind: z.enum(EMAIL_KINDS),
        status: z.enum(EMAIL_STATUSES),
        toAddress: z.string(),
        orderId: id.nullable(),
        contactRequestId: id.nullable(),
        subject: nullableText,
        createdAt: isoDateSchema,
        sentAt: nullableDate,
      }),
    ),
    contactRequests: z.array(
      z.strictObject({
        id,
        name: z.string(),
        email: z.string(),
        subject: z.string(),
        message: z.string(),
        status: z.enum(CONTACT_STATUSES),
        createdAt: isoDateSchema,
      }),
    ),
    audit: z.array(auditLineSchema).describe("Exports et effacements de ce client, les plus récents d'abord"),
    erasure: z
      .strictObject({ allowed: z.boolean(), refusal: nullableText, reasons: z.array(z.string()) })
      .describe(
        "Si l'effacement est possible maintenant, sinon pourquoi (chaque commande payée non expédiée, chaque abonnement actif)",
      ),
    stripeErasure: stripeErasureSchema,
  })
  .describe(
    "Un client : son compte (jamais de mot de passe ni d'empreinte), ses commandes, abonnements, emails et demandes de contact",
  );

/** GET /api/admin/customers/{id}/export: the export file, in French. */
export const customerExportResponseSchema = z
  .looseObject({
    format: z.literal("export-donnees-client-v1"),
    exporteLe: isoDateSchema,
    client: z.looseObject({ id, email: z.string() }),
    commandes: z.array(z.looseObject({ numero: id, total: moneySchema })),
    abonnements: z.array(z.looseObject({ numero: id })),
    emails: z.array(z.looseObject({ id })),
    demandesDeContact: z.array(z.looseObject({ id })),
  })
  .describe("Le fichier d'export (clés en français) : client, commandes, abonnements, emails, demandes de contact");

/** A promotion code (GET/POST /api/admin/promotions, GET/PATCH /api/admin/promotions/{id}). */
export const promotionResponseSchema = z.strictObject({
  id,
  code: z.string().describe("Lettres et chiffres, en majuscules (la casse est ignorée à la saisie)"),
  kind: z.enum(["percent", "amount"]),
  value: z
    .union([z.number().int(), moneySchema])
    .describe('Pourcentage (10 pour 10 %) ou montant en euros ("5.00"), selon `kind`'),
  appliesTo: z
    .enum(["one_off", "first_payment", "every_payment"])
    .describe(
      "Achat unique, premier paiement de l'abonnement, ou chaque paiement de l'abonnement pendant `cycles` renouvellements",
    ),
  cycles: z
    .number()
    .int()
    .nullable()
    .describe("Pour every_payment : le nombre de renouvellements remisés après le premier paiement"),
  startsAt: nullableDate,
  endsAt: nullableDate,
  maxUses: z.number().int().nullable().describe("Utilisations au plus, toutes adresses confondues (null : sans limite)"),
  oncePerEmail: z.boolean(),
  firstOrderOnly: z.boolean(),
  active: z.boolean(),
  uses: z.number().int().describe("Lecture seule : commandes payées avec ce code"),
  revenue: moneySchema.describe(
    "Lecture seule : chiffre d'affaires encaissé des commandes payées avec ce code (renouvellements compris)",
  ),
  createdAt: isoDateSchema,
});
export const promotionListResponseSchema = z.array(promotionResponseSchema);
