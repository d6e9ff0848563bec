import {
  adminLoginResponseSchema,
  adminLogoutResponseSchema,
  adminProductResponseSchema,
  adminOrderListResponseSchema,
  adminSessionListResponseSchema,
  adminSessionResponseSchema,
  attachPaymentMethodResponseSchema,
  cartAddResponseSchema,
  cartItemsResponseSchema,
  contactCreatedResponseSchema,
  contactRequestListResponseSchema,
  contactRequestPageResponseSchema,
  contactRequestResponseSchema,
  customerDataResponseSchema,
  customerExportResponseSchema,
  createdOrderResponseSchema,
  emailListResponseSchema,
  emailResponseSchema,
  cartRemindersRunResponseSchema,
  openApiDocumentResponseSchema,
  orderRefundsResponseSchema,
  refundCreatedResponseSchema,
  orderItemListResponseSchema,
  orderUpdateResponseSchema,
  paymentConfirmResponseSchema,
  paymentStartResponseSchema,
  productListResponseSchema,
  productResponseSchema,
  promotionListResponseSchema,
  promotionResponseSchema,
  publicOrderResponseSchema,
  notificationSettingsResponseSchema,
  settingsResponseSchema,
  stripeEventDocSchema,
  subscriptionListResponseSchema,
  subscriptionResponseSchema,
  subscriptionStartResponseSchema,
  userListResponseSchema,
  userResponseSchema,
  webhookResponseSchema,
  withdrawalAcceptedResponseSchema,
} from "~/schemas/api-responses";
import { cartAddSchema, cartQuantitySchema } from "~/schemas/cart";
import { contactSchema } from "~/schemas/contact";
import { contactStatusSchema } from "~/schemas/contact-status";
import { cartRemindersRunSchema } from "~/schemas/cart-reminders";
import { apiLoginSchema } from "~/schemas/login";
import { apiOrderSchema, orderUpdateApiSchema } from "~/schemas/order";
import {
  attachPaymentMethodBodySchema,
  confirmPaymentBodySchema,
  createSubscriptionBodySchema,
  startPaymentBodySchema,
} from "~/schemas/payments";
import { ADMIN_CHANGE_SCHEMAS } from "~/schemas/subscription-actions";
import { adminSubscriptionCancelSchema } from "~/schemas/admin-subscription";
import { productSchema } from "~/schemas/product";
import { promotionPatchSchema, promotionSchema } from "~/schemas/promotion";
import { refundSchema } from "~/schemas/refund";
import { settingsPatchSchema } from "~/schemas/settings";
import { notificationSettingsPatchSchema } from "~/schemas/notification-settings";
import { userCreateSchema } from "~/schemas/user";
import { withdrawalApiSchema } from "~/schemas/withdrawal";
import { EMAIL_KINDS, EMAIL_STATUSES } from "~/lib/email-kinds";
import { SESSION_ID_PATTERN } from "~/lib/ids";
import { SUBSCRIPTION_STATUSES } from "~/lib/subscription-status";
import { analyticsResponseSchema } from "~/schemas/analytics-response";
import { buildOpenApiDocument, type ApiOperation } from "./document.server";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "~/schemas/page";

/** The query of a paged list (app/schemas/page.ts). */
const PAGE_QUERY = [
  {
    name: "limit",
    description: `Nombre d'éléments par page : ${DEFAULT_PAGE_LIMIT} par défaut, ${MAX_PAGE_LIMIT} au plus`,
    schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT },
  },
  { name: "cursor", description: "Le `nextCursor` de la page précédente (opaque)", schema: { type: "string", maxLength: 512 } },
];
const PAGE_ERRORS = "`limit` ou `cursor` invalide";
const PAGED_LIST =
  `Liste paginée : \`limit\` éléments (${DEFAULT_PAGE_LIMIT} par défaut, ${MAX_PAGE_LIMIT} au plus) et \`nextCursor\`, à renvoyer en \`cursor\` pour la suite ` +
  "(null sur la dernière page ; la même URL est dans l'en-tête `Link`). Une ligne ajoutée entre deux pages n'en décale aucune : rien n'est ni répété ni sauté.";
const DAY_SCHEMA = { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" };

/**
 * Every operation of the JSON API (spec section 7, plus the cart, payment, webhook and
 * documentation paths), with the zod schemas the route modules really use. The OpenAPI
 * document, the /docs/api page and the contract tests are all generated from this list.
 */

const CART_ID_PARAM = {
  type: "string",
  format: "uuid",
  pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
};

const PAYMENT_ERRORS = {
  404: "Commande introuvable (ou ni son panier ni son jeton : même réponse)",
  409:
    "Commande déjà payée, vide, en rupture, sans adresse email (`order_email_missing`), pack d'essai déjà acheté avec cet email (`trial_used`) " +
    "ou demandé en abonnement (`trial_one_off_only`), ou tentative déjà en cours (`code`)",
  502: "Réponse incomplète du service de paiement (`code` missing_client_secret)",
  503: "Service de paiement momentanément indisponible (`code` provider_unavailable)",
};

const SUBSCRIPTION_CHANGE_SUMMARIES = {
  skip: "Saute la prochaine livraison d'un abonnement",
  unskip: "Annule le saut de la prochaine livraison",
  pause: "Met un abonnement en pause pour 1, 2 ou 3 cycles",
  resume: "Reprend un abonnement en pause",
  change_pack: "Change le pack d'un abonnement à partir du prochain renouvellement",
  change_frequency: "Change la fréquence d'un abonnement (4, 6 ou 8 semaines) à partir du prochain renouvellement",
  reactivate: "Réactive un abonnement dont la résiliation est prévue",
} as const;

const SUBSCRIPTION_CHANGE_COMMON =
  "La raison (`reason`, obligatoire) est écrite dans l'historique de l'abonnement (`timeline`, `kind` change) ; le client reçoit un email de confirmation. Mêmes règles que sur /mon-abonnement.";

const SUBSCRIPTION_CHANGE_ERRORS = {
  404: "Abonnement introuvable",
  409: "Changement impossible dans l'état de l'abonnement (`code` subscription_canceled, subscription_past_due, cancel_scheduled, already_paused, not_paused, not_skipped, too_late, no_cancellation_planned, period_over…), avec la raison en français",
  422: "Corps invalide (détail en français par champ dans `issues`, ex. « Indiquez la raison de ce changement ») ou pack refusé (`code` pack_unavailable, same_pack)",
  503: "Service de paiement momentanément indisponible (`code` provider_unavailable)",
};

export const API_OPERATIONS: ApiOperation[] = [
  // ---- Catalogue
  {
    method: "get",
    path: "/api/products",
    file: "app/routes/api.products.ts",
    operationId: "listProducts",
    summary: "Liste des produits du catalogue",
    tag: "Catalogue",
    auth: "public",
    success: { status: 200, description: "Les produits, prix en chaînes décimales", schema: productListResponseSchema },
  },
  {
    method: "get",
    path: "/api/products/{id}",
    file: "app/routes/api.products.$id.ts",
    operationId: "getProduct",
    summary: "Un produit (la page d'accueil lit le produit 1)",
    tag: "Catalogue",
    auth: "public",
    pathParams: [{ name: "id", description: "Identifiant du produit" }],
    success: { status: 200, description: "Le produit", schema: productResponseSchema },
  },
  {
    method: "put",
    path: "/api/products/{id}",
    file: "app/routes/api.products.$id.ts",
    operationId: "updateProduct",
    summary: "Modifie un produit et ses packs (le schéma du formulaire de l'administration)",
    description:
      "Les prix sont des montants en euros en chaînes (« 25,90 » ou « 25.90 ») et `images` une adresse par ligne, comme dans le formulaire. " +
      "Un pack avec `id` est modifié (il doit être un pack de ce produit), un pack sans `id` est ajouté ; les packs absents ne changent pas " +
      "(un pack n'est jamais supprimé : `active: false` le retire de la vente). Chaque nouveau prix est inscrit à l'historique des prix. " +
      "`crossedOutWarnings` liste les prix de référence qui ne sont pas le prix le plus bas des 30 jours précédant la réduction : ils ne sont pas affichés.",
    tag: "Catalogue",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant du produit" }],
    body: productSchema,
    success: { status: 200, description: "Le produit modifié, avec ses packs en vente", schema: adminProductResponseSchema },
    errors: {
      404: "Produit introuvable",
      409: "SKU déjà utilisé (`sku_taken`), ou un second pack d'essai en vente (`trial_pack_taken`)",
      422: "Données invalides, ou pack d'un autre produit (`unknown_pack`)",
    },
  },

  // ---- Panier
  {
    method: "post",
    path: "/api/cart",
    file: "app/routes/api.cart.ts",
    operationId: "addToCart",
    summary: "Ajoute un pack au panier (le panier ne contient qu'un produit à la fois)",
    description:
      "Seuls `productId` et `packId` (ou `variantName`, le nom exact du pack) sont lus : la ligne est créée en quantité 1 au prix du pack. " +
      "Le pack doit être un pack en vente de ce produit (voir `packs` de GET /api/products/{id}) ; un produit sans pack en vente s'ajoute sans `packId`, à son prix, " +
      "sauf s'il n'est pas vendu (409). " +
      "Les champs `userId`, `quantity`, `variantPrice` et `variantOriginalPrice` de l'ancienne API sont ignorés. Crée le cookie `cart` au besoin. " +
      "Un pack inconnu est refusé (422, les packs sont listés dans le message). " +
      "Sans cookie `cart`, un nouveau panier est créé, dans la limite des nouveaux paniers par heure et par adresse (page et API ensemble, voir le README), au-delà 429 ; " +
      "un ajout au panier du cookie n'est jamais refusé pour cette raison.",
    tag: "Panier",
    auth: "own-cart",
    body: cartAddSchema,
    success: {
      status: 201,
      description: "Le panier après l'ajout, avec son identifiant",
      schema: cartAddResponseSchema,
      headers: { "Set-Cookie": "Cookie `cart` du visiteur, s'il n'en avait pas" },
    },
    errors: {
      404: "Produit introuvable",
      409: "Produit en rupture de stock, ou pas en vente",
      422: "Pack inconnu",
      429: "Trop de nouveaux paniers depuis cette adresse : réessayez plus tard (en-tête Retry-After)",
    },
  },
  {
    method: "get",
    path: "/api/cart/{id}",
    file: "app/routes/api.cart.$id.ts",
    operationId: "getCart",
    summary: "Les articles du panier du visiteur",
    description: "`id` est l'identifiant du panier (`cartId` de POST /api/cart) ; seul le sien est lisible.",
    tag: "Panier",
    auth: "own-cart",
    pathParams: [{ name: "id", description: "Identifiant du panier (UUID)", schema: CART_ID_PARAM }],
    success: { status: 200, description: "Les lignes du panier", schema: cartItemsResponseSchema },
    errors: { 403: "Ce panier n'est pas le vôtre" },
  },
  {
    method: "put",
    path: "/api/cart/{id}",
    file: "app/routes/api.cart.$id.ts",
    operationId: "setCartItemQuantity",
    summary: "Change la quantité d'une ligne (en dessous de 1, la ligne est retirée)",
    description: "10 exemplaires d'un pack au plus, et exactement 1 du pack d'essai : au-delà, 422 avec la raison.",
    tag: "Panier",
    auth: "own-cart",
    pathParams: [{ name: "id", description: "Identifiant de la ligne du panier" }],
    body: cartQuantitySchema,
    success: { status: 200, description: "Les lignes du panier après la modification", schema: cartItemsResponseSchema },
    errors: { 404: "Article introuvable dans votre panier", 422: "Quantité que le pack n'autorise pas" },
  },
  {
    method: "delete",
    path: "/api/cart/{id}",
    file: "app/routes/api.cart.$id.ts",
    operationId: "removeCartItem",
    summary: "Retire une ligne du panier",
    tag: "Panier",
    auth: "own-cart",
    pathParams: [{ name: "id", description: "Identifiant de la ligne du panier" }],
    success: { status: 204, description: "Ligne retirée (pas de corps)" },
    errors: { 404: "Article introuvable dans votre panier" },
  },
  {
    method: "delete",
    path: "/api/cart/user/{userId}",
    file: "app/routes/api.cart.user.$userId.ts",
    operationId: "clearCart",
    summary: "Vide le panier du visiteur",
    description: "Le `userId` de la spécification est ici l'identifiant du panier du visiteur, le sien seulement.",
    tag: "Panier",
    auth: "own-cart",
    pathParams: [{ name: "userId", description: "Identifiant du panier (UUID)", schema: CART_ID_PARAM }],
    success: { status: 204, description: "Panier vidé (pas de corps)" },
    errors: { 403: "Ce panier n'est pas le vôtre" },
  },

  // ---- Commandes
  {
    method: "get",
    path: "/api/orders",
    file: "app/routes/api.orders.ts",
    operationId: "listOrders",
    summary: "Liste des commandes, les plus récentes d'abord",
    description:
      "Par défaut, les commandes payées (ou remboursées depuis) : un panier dont le paiement n'a pas été reçu n'est pas une commande. " +
      "`view=unpaid` donne les paniers en attente de paiement (paniers abandonnés, paiements en attente ou échoués), `view=all` les deux ; un filtre `payment` l'emporte sur `view`. " +
      "Chaque commande indique sa rétractation demandée en ligne (`withdrawal` : date et heure, motif, date limite du remboursement), ou null.\n\n" +
      PAGED_LIST,
    tag: "Commandes",
    auth: "admin",
    query: [
      {
        name: "view",
        description:
          "orders (par défaut) : commandes payées ou remboursées ; unpaid : paniers en attente de paiement ; all : tout",
        schema: { type: "string", enum: ["orders", "unpaid", "all"] },
      },
      {
        name: "status",
        description: "Filtre de préparation",
        schema: { type: "string", enum: ["pending", "processing", "shipped", "delivered"] },
      },
      {
        name: "payment",
        description: "Filtre de paiement",
        schema: { type: "string", enum: ["unpaid", "paid", "failed", "refunded", "partially_refunded"] },
      },
      {
        name: "q",
        description: "Numéro de commande, début de l'adresse email du client (« marie.d ») ou son domaine (« @exemple.fr »)",
        schema: { type: "string", maxLength: 100 },
      },
      { name: "du", description: "Commandes passées depuis ce jour (AAAA-MM-JJ, heure de Paris, inclus)", schema: DAY_SCHEMA },
      { name: "au", description: "Commandes passées jusqu'à ce jour (AAAA-MM-JJ, heure de Paris, inclus)", schema: DAY_SCHEMA },
      ...PAGE_QUERY,
    ],
    success: { status: 200, description: "Une page de commandes", schema: adminOrderListResponseSchema },
    errors: { 422: `${PAGE_ERRORS} ; période invalide` },
  },
  {
    method: "post",
    path: "/api/orders",
    file: "app/routes/api.orders.ts",
    operationId: "createOrder",
    summary: "Crée une commande (en attente, non payée) et donne son jeton",
    description:
      "Le corps de la spécification est accepté tel quel : `total`, `status`, `userId`, les quatre champs de livraison et `items` (`productId`, `quantity`, `price`). " +
      "Une commande contient un seul article : un pack, 10 exemplaires au plus, le pack d'essai (0.99) en 1 exemplaire et une seule fois par adresse email (409 sinon). " +
      "L'article désigne son pack par `packId`, par son nom exact (`variantName`) ou par son prix (`price`) quand c'est exactement le prix d'un pack ; sinon 422, les trois packs listés. " +
      "Les montants viennent des packs : un `price` ou un `total` qui n'est pas celui du serveur est refusé (422), les montants attendus dans `issues` " +
      '(par exemple `{ "path": "items.0.price", "message": "Prix attendu : 25.90" }`), jamais corrigé en silence. ' +
      "`status` n'est jamais suivi : la commande est créée `pending` et non payée, seul le serveur la marque payée après Stripe. " +
      "`customerEmail` et `customerName` sont facultatifs ici (l'email est requis avant le paiement, voir PUT /api/orders/{id}). " +
      "Le client existant désigné par `userId`, ou trouvé par l'email, est rattaché sans jamais être modifié ; la commande garde sa propre copie du nom et de l'adresse. " +
      "La réponse contient le jeton `token` de la commande, donné une seule fois : il prouve la propriété (voir GET et PUT /api/orders/{id} et les paiements). " +
      "`promotionCode` applique un code promo : la remise (`discount`) est déduite du total (`total` envoyé par le client reste le total avant remise) ; un code inconnu, expiré ou épuisé est refusé (422), jamais ignoré.",
    tag: "Commandes",
    auth: "public",
    body: apiOrderSchema,
    success: {
      status: 201,
      description: "La commande créée, avec son numéro `id` et son jeton `token`",
      schema: createdOrderResponseSchema,
      headers: {
        Location: "/api/orders/{id}",
        "Set-Cookie": "Cookie signé `orders` : ce navigateur se souvient de ses commandes",
      },
    },
    errors: {
      404: "Produit introuvable",
      409: "Produit en rupture de stock, ou pack d'essai déjà acheté avec cet email",
      422:
        "Pack inconnu (les packs sont listés), quantité ou nombre d'articles refusés, montant différent de celui du serveur (montants attendus dans `issues`), " +
        "ou `promotionCode` refusé (`code` promotion_refused, la raison en français : « Ce code promo n'existe pas. », « Ce code a expiré », « Ce code a atteint son nombre maximal d'utilisations. », « Ce code a déjà été utilisé avec cette adresse email »…)",
      429: "Trop de requêtes depuis cette adresse : réessayez plus tard (en-tête Retry-After)",
    },
  },
  {
    method: "get",
    path: "/api/orders/{id}",
    file: "app/routes/api.orders.$id.ts",
    operationId: "getOrder",
    summary: "Une commande (pages de confirmation et de suivi)",
    description:
      'Avec le numéro seul : statut, date, articles, total, numéro de suivi, code postal et ville (`access: "public"`). ' +
      "Le nom, la rue et l'email seulement à qui prouve posséder la commande (`access: \"owner\"`) : le navigateur qui l'a passée " +
      "(cookies `cart` ou `orders`), le jeton de la commande (en-tête `X-Order-Token` ou `?token=`), ou une session administrateur. " +
      "Pour une session administrateur, la rétractation demandée en ligne (`withdrawal` : date et heure, motif, date limite du remboursement), ou null.",
    tag: "Commandes",
    auth: "public",
    pathParams: [{ name: "id", description: "Numéro de commande (9 chiffres)" }],
    query: [{ name: "token", description: "Jeton de la commande (ou en-tête X-Order-Token)", schema: { type: "string" } }],
    success: { status: 200, description: "La commande et ses articles", schema: publicOrderResponseSchema },
    errors: { 429: "Trop de numéros de commande introuvables depuis cette adresse : réessayez plus tard (en-tête Retry-After)" },
  },
  {
    method: "put",
    path: "/api/orders/{id}",
    file: "app/routes/api.orders.$id.ts",
    operationId: "updateOrder",
    summary: "Administration : statut et numéro de suivi ; détenteur du jeton : email et nom de la commande",
    description:
      "Administrateur : `status` (pending, processing, shipped ou delivered ; les libellés Commande reçue, En préparation, Expédiée, Livrée et `completed` sont acceptés) " +
      "et `trackingNumber` (vide ou null l'efface) avec son transporteur `trackingCarrier` (colissimo, chronopost, mondial_relay ou dpd ; par défaut celui des paramètres). " +
      "Les étapes En préparation, Expédiée et Livrée, et un numéro de suivi, sont refusés sur une commande non payée (409, code `order_not_paid`). " +
      "Détenteur du jeton (ou administrateur), tant que la commande n'est pas payée : les champs de paiement de la spécification `customerEmail` et `customerName` " +
      "(le client de cet email est rattaché, jamais modifié). `isSubscription`, `stripeSubscriptionId` et, pour le détenteur du jeton, `status` (`confirmed`) sont acceptés et ignorés : " +
      "rien ici ne marque une commande payée, le mode se choisit au démarrage du paiement (`isSubscription: true` est refusé pour le pack d'essai).",
    tag: "Commandes",
    auth: "order-token",
    pathParams: [{ name: "id", description: "Numéro de commande" }],
    query: [{ name: "token", description: "Jeton de la commande (ou en-tête X-Order-Token)", schema: { type: "string" } }],
    body: orderUpdateApiSchema,
    success: {
      status: 200,
      description:
        "La commande modifiée : vue de l'administration pour l'administrateur, vue du propriétaire pour le détenteur du jeton",
      schema: orderUpdateResponseSchema,
    },
    errors: {
      403: "Numéro de suivi réservé à l'administrateur",
      409: "Commande non payée (`order_not_paid` : pas d'étape de préparation ni de numéro de suivi avant le paiement), commande déjà payée, ou pack d'essai déjà acheté avec cet email",
      422: "`isSubscription: true` pour le pack d'essai, statut ou transporteur inconnus",
    },
  },
  {
    method: "get",
    path: "/api/orders/{id}/items",
    file: "app/routes/api.orders.$id.items.ts",
    operationId: "listOrderItems",
    summary: "Les articles d'une commande (fiche commande de l'administration)",
    tag: "Commandes",
    auth: "admin",
    pathParams: [{ name: "id", description: "Numéro de commande" }],
    success: {
      status: 200,
      description: "Les articles, prix unitaires en chaînes décimales",
      schema: orderItemListResponseSchema,
    },
  },

  // ---- Paiement
  {
    method: "post",
    path: "/api/payments/start",
    file: "app/routes/api.payments.start.ts",
    operationId: "startPayment",
    summary: "Démarre le paiement d'une commande (achat unique ou abonnement)",
    description:
      "Le montant vient toujours de la commande, qui doit avoir une adresse email. Le pack d'essai ne se paie qu'en achat unique, et une seule fois par adresse email.",
    tag: "Paiement",
    auth: "order-owner",
    body: startPaymentBodySchema,
    success: {
      status: 200,
      description: "Secret client du paiement, ou `paid: true` si la commande est déjà payée",
      schema: paymentStartResponseSchema,
    },
    errors: PAYMENT_ERRORS,
  },
  {
    method: "post",
    path: "/api/payments/confirm",
    file: "app/routes/api.payments.confirm.ts",
    operationId: "confirmPayment",
    summary: "Le serveur vérifie le paiement auprès de Stripe et marque la commande payée",
    description:
      "Rien dans la requête ne peut marquer une commande payée : seule la réponse de Stripe compte. Pour le propriétaire de la commande seulement (panier, cookie `orders` ou jeton) ; sinon 404, compté avec les numéros de commande introuvables (429 au-delà de la limite).",
    tag: "Paiement",
    auth: "public",
    body: confirmPaymentBodySchema,
    success: { status: 200, description: "État du paiement", schema: paymentConfirmResponseSchema },
    errors: { 404: "Commande introuvable", 429: "Trop de numéros de commande introuvables essayés", 503: PAYMENT_ERRORS[503] },
  },
  {
    method: "post",
    path: "/api/create-subscription",
    file: "app/routes/api.create-subscription.ts",
    operationId: "createSubscription",
    summary: "Abonnement : prélevé maintenant, puis toutes les 4 semaines à partir du 30e jour",
    description:
      "Les champs `productId`, `quantity` et `userId` de la spécification sont acceptés et ignorés : tout vient de la commande. Refusé pour le pack d'essai (409 `trial_one_off_only`).",
    tag: "Paiement",
    auth: "order-owner",
    body: createSubscriptionBodySchema,
    success: { status: 200, description: "Secret client de la première facture", schema: subscriptionStartResponseSchema },
    errors: PAYMENT_ERRORS,
  },
  {
    method: "post",
    path: "/api/attach-payment-method",
    file: "app/routes/api.attach-payment-method.ts",
    operationId: "attachPaymentMethod",
    summary: "La carte devient celle des prochains prélèvements de l'abonnement",
    tag: "Paiement",
    auth: "order-owner",
    body: attachPaymentMethodBodySchema,
    success: { status: 200, description: "Carte rattachée", schema: attachPaymentMethodResponseSchema },
    errors: {
      403: "L'adresse email ne correspond pas à celle de la commande",
      404: "Abonnement ou moyen de paiement introuvable",
      409: "Moyen de paiement d'un autre client",
      503: PAYMENT_ERRORS[503],
    },
  },
  {
    method: "post",
    path: "/api/stripe/webhook",
    file: "app/routes/api.stripe.webhook.ts",
    operationId: "stripeWebhook",
    summary: "Événements signés de Stripe (paiement réussi ou échoué, facture payée, abonnement terminé)",
    description: "Chaque événement n'est traité qu'une fois (son identifiant est enregistré) : un renvoi ne change rien.",
    tag: "Paiement",
    auth: "stripe-signature",
    body: stripeEventDocSchema,
    bodyMode: "stripe-signed",
    success: { status: 200, description: "Événement reçu", schema: webhookResponseSchema },
  },

  // ---- Contact
  {
    method: "post",
    path: "/api/contact",
    file: "app/routes/api.contact.ts",
    operationId: "createContactRequest",
    summary: "Envoie une demande de contact (mêmes règles que le formulaire de contact)",
    tag: "Contact",
    auth: "public",
    body: contactSchema,
    success: { status: 201, description: "Demande enregistrée, avec son `id`", schema: contactCreatedResponseSchema },
    errors: { 429: "Trop de requêtes depuis cette adresse : réessayez plus tard (en-tête Retry-After)" },
  },
  {
    method: "post",
    path: "/api/withdrawals",
    file: "app/routes/api.withdrawals.ts",
    operationId: "createWithdrawalRequest",
    summary: "Rétractation du contrat en ligne (mêmes règles que le formulaire « Se rétracter du contrat »)",
    description:
      "Numéro de commande (9 chiffres), email de la commande et motif facultatif (1000 caractères au plus). " +
      "La demande n'est enregistrée, avec son accusé de réception par email, que pour une commande payée dont l'email correspond (casse et espaces ignorés), une fois par commande. " +
      "La réponse est toujours la même, qu'une commande corresponde ou non ; les demandes sans commande correspondante sont limitées par adresse.",
    tag: "Commandes",
    auth: "public",
    body: withdrawalApiSchema,
    success: { status: 200, description: "Réponse neutre", schema: withdrawalAcceptedResponseSchema },
    errors: {
      429: "Trop de demandes sans commande correspondante depuis cette adresse : réessayez plus tard (en-tête Retry-After)",
    },
  },

  // ---- Administration
  {
    method: "post",
    path: "/api/admin/login",
    file: "app/routes/api.admin.login.ts",
    operationId: "adminLogin",
    summary: "Connexion administrateur (ouvre la session)",
    description:
      "En cas d'échec, la réponse 401 contient aussi `success: false` et `message`. Un compte protégé par la double " +
      "authentification (TOTP) donne aussi `code` : les 6 chiffres de son application d'authentification, ou l'un de ses " +
      "codes de secours (chacun ne sert qu'une fois). Un code faux compte dans les limites de connexion comme un mot de passe faux.",
    tag: "Administration",
    auth: "public",
    body: apiLoginSchema,
    success: {
      status: 200,
      description: "Connecté",
      schema: adminLoginResponseSchema,
      headers: { "Set-Cookie": "Cookie de session `__admin`" },
    },
    errors: {
      401:
        "Identifiants invalides ; pour un compte avec la double authentification, code de vérification manquant " +
        "(`code` totp_required) ou faux, ou déjà utilisé (`code` invalid_code)",
      429: "Trop de tentatives : réessayez plus tard (en-tête Retry-After)",
      503: "Trop de connexions vérifiées en même temps : réessayez dans quelques secondes (en-tête Retry-After)",
    },
  },
  {
    method: "post",
    path: "/api/admin/logout",
    file: "app/routes/api.admin.logout.ts",
    operationId: "adminLogout",
    summary: "Déconnexion (ferme la session)",
    tag: "Administration",
    auth: "public",
    success: {
      status: 200,
      description: "Déconnecté",
      schema: adminLogoutResponseSchema,
      headers: { "Set-Cookie": "Efface le cookie `__admin`" },
    },
  },
  {
    method: "get",
    path: "/api/admin/session",
    file: "app/routes/api.admin.session.ts",
    operationId: "adminSession",
    summary: "La session administrateur en cours",
    description: "La réponse 401 contient aussi `authenticated: false` et `user: null`.",
    tag: "Administration",
    auth: "admin",
    success: { status: 200, description: "Administrateur connecté", schema: adminSessionResponseSchema },
  },
  {
    method: "get",
    path: "/api/admin/sessions",
    file: "app/routes/api.admin.sessions.ts",
    operationId: "listAdminSessions",
    summary: "Les sessions ouvertes de l'administrateur connecté",
    description:
      "Une session dure 12 heures après la connexion (sans prolongation). `current` désigne la session de la requête ; " +
      "`id` est un identifiant public, jamais le jeton du cookie.",
    tag: "Administration",
    auth: "admin",
    success: {
      status: 200,
      description: "Les sessions, la plus récemment active d'abord",
      schema: adminSessionListResponseSchema,
    },
  },
  {
    method: "delete",
    path: "/api/admin/sessions/{id}",
    file: "app/routes/api.admin.sessions.$id.ts",
    operationId: "revokeAdminSession",
    summary: "Révoque une de ses sessions (son cookie est ensuite refusé)",
    description:
      "Seules ses propres sessions sont visibles et révocables. Révoquer la session courante déconnecte (le cookie est effacé).",
    tag: "Administration",
    auth: "admin",
    pathParams: [
      {
        name: "id",
        description: "Identifiant public de la session (GET /api/admin/sessions)",
        schema: { type: "string", pattern: SESSION_ID_PATTERN.source },
      },
    ],
    success: { status: 204, description: "Session révoquée (pas de corps)" },
    errors: { 404: "Session introuvable (ni ouverte, ni à vous)" },
  },
  {
    method: "get",
    path: "/api/admin/promotions",
    file: "app/routes/api.admin.promotions.ts",
    operationId: "listPromotions",
    summary: "Les codes promo, les plus récents d'abord, avec leurs utilisations et le chiffre d'affaires qu'ils ont apporté",
    tag: "Administration",
    auth: "admin",
    success: { status: 200, description: "Les codes promo", schema: promotionListResponseSchema },
  },
  {
    method: "post",
    path: "/api/admin/promotions",
    file: "app/routes/api.admin.promotions.ts",
    operationId: "createPromotion",
    summary: "Crée un code promo",
    description:
      '`kind` percent (`value` 10 pour 10 %) ou amount (`value` en euros, "5.00"). `appliesTo` : one_off (achat unique), ' +
      "first_payment (premier paiement d'un abonnement) ou every_payment (le premier paiement et les `cycles` renouvellements suivants). " +
      "Un code ne rend jamais un total négatif ni inférieur à 0,50 € ; un code de 100 % sur un achat unique rend la commande gratuite (sans carte).",
    tag: "Administration",
    auth: "admin",
    body: promotionSchema,
    success: {
      status: 201,
      description: "Le code créé",
      schema: promotionResponseSchema,
      headers: { Location: "/api/admin/promotions/{id}" },
    },
    errors: { 409: "Ce code existe déjà (`code` promotion_code_taken)" },
  },
  {
    method: "get",
    path: "/api/admin/promotions/{id}",
    file: "app/routes/api.admin.promotions.$id.ts",
    operationId: "getPromotion",
    summary: "Un code promo, avec ses utilisations et son chiffre d'affaires",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant du code promo" }],
    success: { status: 200, description: "Le code promo", schema: promotionResponseSchema },
    errors: { 404: "Code promo introuvable" },
  },
  {
    method: "patch",
    path: "/api/admin/promotions/{id}",
    file: "app/routes/api.admin.promotions.$id.ts",
    operationId: "updatePromotion",
    summary: "Modifie un code promo (les champs donnés), par exemple `active: false` pour le désactiver",
    description: "Le code modifié est vérifié en entier avec les règles de la création (422 avec les champs refusés).",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant du code promo" }],
    body: promotionPatchSchema,
    success: { status: 200, description: "Le code promo modifié", schema: promotionResponseSchema },
    errors: { 404: "Code promo introuvable", 409: "Ce code existe déjà (`code` promotion_code_taken)" },
  },
  {
    method: "delete",
    path: "/api/admin/promotions/{id}",
    file: "app/routes/api.admin.promotions.$id.ts",
    operationId: "deletePromotion",
    summary: "Supprime un code jamais utilisé, ou désactive un code déjà utilisé (ses commandes le gardent)",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant du code promo" }],
    success: { status: 204, description: "Code supprimé ou désactivé (pas de corps)" },
    errors: { 404: "Code promo introuvable" },
  },
  {
    method: "get",
    path: "/api/admin/contacts",
    file: "app/routes/api.admin.contacts.ts",
    operationId: "listContactRequests",
    summary: "Demandes de contact, les plus récentes d'abord",
    description: PAGED_LIST,
    tag: "Administration",
    auth: "admin",
    query: PAGE_QUERY,
    success: {
      status: 200,
      description: "Une page de demandes",
      schema: contactRequestPageResponseSchema,
    },
    errors: { 422: PAGE_ERRORS },
  },
  {
    method: "get",
    path: "/api/admin/contacts/{id}",
    file: "app/routes/api.admin.contacts.$id.ts",
    operationId: "getContactRequest",
    summary: "Une demande de contact",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de la demande" }],
    success: { status: 200, description: "La demande", schema: contactRequestResponseSchema },
  },
  {
    method: "patch",
    path: "/api/admin/contacts/{id}",
    file: "app/routes/api.admin.contacts.$id.ts",
    operationId: "setContactRequestStatus",
    summary: "Change le statut d'une demande (non_lu, lu, en_cours, traite)",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de la demande" }],
    body: contactStatusSchema,
    success: { status: 200, description: "La demande modifiée", schema: contactRequestResponseSchema },
  },
  {
    method: "delete",
    path: "/api/admin/contacts/{id}",
    file: "app/routes/api.admin.contacts.$id.ts",
    operationId: "deleteContactRequest",
    summary: "Supprime une demande de contact",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de la demande" }],
    success: { status: 204, description: "Demande supprimée (pas de corps)" },
  },
  {
    method: "get",
    path: "/api/public/contacts",
    file: "app/routes/api.public.contacts.ts",
    operationId: "listContactRequestsDemo",
    summary: "Demandes de contact pour la page de test (outil de débogage)",
    tag: "Administration",
    auth: "demo",
    success: { status: 200, description: "Les demandes", schema: contactRequestListResponseSchema },
  },
  {
    method: "post",
    path: "/api/admin/cart-reminders/run",
    file: "app/routes/api.admin.cart-reminders.run.ts",
    operationId: "runCartReminders",
    summary: "Calcule les rappels de commande non finalisée pour un moment donné (outil de démonstration)",
    description:
      "Mode démo seulement, session administrateur. Applique la règle du planificateur au moment `at` : un seul rappel, " +
      "4 heures après une commande non payée dont l'acheteur a coché « M'envoyer un rappel si je ne finalise pas ma commande », " +
      "jamais après un paiement ni à une adresse désinscrite. Les emails partent dans la boîte aux lettres de démonstration.",
    tag: "Administration",
    auth: "admin",
    body: cartRemindersRunSchema,
    success: {
      status: 200,
      description: "Le nombre de rappels mis en file d'envoi",
      schema: cartRemindersRunResponseSchema,
    },
    errors: { 404: "Outil de démonstration : introuvable en mode production" },
  },
  {
    method: "get",
    path: "/api/admin/emails",
    file: "app/routes/api.admin.emails.ts",
    operationId: "listEmails",
    summary: "Emails de la boutique (file d'envoi), les plus récents d'abord",
    description:
      `${PAGED_LIST} Les filtres sont ceux de la page /admin/emails ; une valeur illisible est ignorée. En mode démo, rien n'est envoyé : ` +
      "cette liste est la boîte aux lettres de la boutique.",
    tag: "Administration",
    auth: "admin",
    query: [
      { name: "status", description: "Statut de l'email", schema: { type: "string", enum: [...EMAIL_STATUSES] } },
      { name: "kind", description: "Type d'email", schema: { type: "string", enum: [...EMAIL_KINDS] } },
      {
        name: "to",
        description: "Partie de l'adresse du destinataire (sans distinction de casse)",
        schema: { type: "string", maxLength: 254 },
      },
      { name: "order", description: "Numéro de commande (« #123456789 » accepté)", schema: { type: "string" } },
      ...PAGE_QUERY,
    ],
    success: {
      status: 200,
      description: "Une page d'emails, sans leur contenu, et le nombre d'emails par statut",
      schema: emailListResponseSchema,
    },
    errors: { 422: PAGE_ERRORS },
  },
  {
    method: "get",
    path: "/api/admin/emails/{id}",
    file: "app/routes/api.admin.emails.$id.ts",
    operationId: "getEmail",
    summary: "Un email tel qu'il a été envoyé : parties HTML et texte, pièces jointes, Message-ID",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'email" }],
    success: { status: 200, description: "L'email", schema: emailResponseSchema },
  },
  {
    method: "post",
    path: "/api/admin/emails/{id}/resend",
    file: "app/routes/api.admin.emails.$id.resend.ts",
    operationId: "resendEmail",
    summary: "Remet un email en échec dans la file d'envoi, avec le même contenu",
    description:
      "Sans corps. L'email repasse « pending » avec 0 tentative, à envoyer tout de suite ; son contenu n'est pas rendu à nouveau " +
      "et sa dernière erreur reste visible jusqu'à la tentative suivante.",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'email" }],
    success: { status: 200, description: "L'email, remis en file d'envoi", schema: emailResponseSchema },
    errors: { 409: "L'email n'est pas en échec (déjà en file d'envoi ou envoyé) : `code` email_not_failed" },
  },
  {
    method: "get",
    path: "/api/admin/analytics",
    file: "app/routes/api.admin.analytics.ts",
    operationId: "getAnalytics",
    summary: "Chiffre d'affaires, abonnés et entonnoir d'achat d'une période, comparés à la période précédente",
    description:
      "Les chiffres de /admin/analytique, calculés par la base : chiffre d'affaires net des remboursements (TTC et HT, factures moins avoirs), " +
      "commandes et panier moyen, achats uniques et abonnements, ventes par pack, abonnés en cours et MRR (montants par cycle de 4 semaines × 13 / 12), " +
      "nouveaux abonnés et abonnements terminés, désabonnement mensuel, renouvellements, motifs de résiliation et entonnoir d'achat " +
      "(compté sans cookie ni traceur). Jours de Paris, bornes comprises ; séries par jour jusqu'à 92 jours, par semaine au-delà. " +
      "Sans paramètre : les 30 derniers jours.",
    tag: "Administration",
    auth: "admin",
    query: [
      { name: "from", description: "Premier jour (AAAA-MM-JJ, heure de Paris)", schema: { type: "string", format: "date" } },
      {
        name: "to",
        description: "Dernier jour inclus (AAAA-MM-JJ) ; au plus 1 100 jours après `from`",
        schema: { type: "string", format: "date" },
      },
    ],
    success: { status: 200, description: "Les chiffres de la période", schema: analyticsResponseSchema },
    errors: {
      422: "Période illisible (détail par paramètre dans `issues`, ex. « La date de fin doit suivre la date de début »)",
    },
  },
  {
    method: "get",
    path: "/api/admin/subscriptions",
    file: "app/routes/api.admin.subscriptions.ts",
    operationId: "listSubscriptions",
    summary: "Abonnements, les plus récents d'abord",
    description:
      `${PAGED_LIST} ` +
      "Les filtres sont ceux de la page /admin/subscriptions. Une valeur illisible est refusée (400, détail par paramètre dans `issues`) ; " +
      "un paramètre vide ou inconnu est ignoré. Les dates sont des jours (AAAA-MM-JJ, heure de Paris), bornes comprises.",
    tag: "Administration",
    auth: "admin",
    query: [
      { name: "status", description: "Statut de l'abonnement", schema: { type: "string", enum: [...SUBSCRIPTION_STATUSES] } },
      {
        name: "q",
        description: "Partie du nom ou de l'email du client, ou numéro de l'abonnement ou de sa commande",
        schema: { type: "string", maxLength: 100 },
      },
      {
        name: "pack",
        description: "Identifiant du pack (voir les `packs` de GET /api/products/{id})",
        schema: { type: "integer", minimum: 1 },
      },
      {
        name: "minAmount",
        description: "Montant toutes les 4 semaines, au moins (euros : « 25.90 » ou « 25,90 »)",
        schema: { type: "string", examples: ["20,00"] },
      },
      {
        name: "maxAmount",
        description: "Montant toutes les 4 semaines, au plus (euros)",
        schema: { type: "string", examples: ["30.00"] },
      },
      { name: "startedFrom", description: "Souscrit à partir de ce jour", schema: { type: "string", format: "date" } },
      { name: "startedTo", description: "Souscrit jusqu'à ce jour inclus", schema: { type: "string", format: "date" } },
      {
        name: "renewsFrom",
        description: "Prochain renouvellement à partir de ce jour",
        schema: { type: "string", format: "date" },
      },
      {
        name: "renewsTo",
        description: "Prochain renouvellement jusqu'à ce jour inclus",
        schema: { type: "string", format: "date" },
      },
      {
        name: "minRenewals",
        description: "Au moins ce nombre de renouvellements payés",
        schema: { type: "integer", minimum: 0 },
      },
      { name: "maxRenewals", description: "Au plus ce nombre de renouvellements payés", schema: { type: "integer", minimum: 0 } },
      ...PAGE_QUERY,
    ],
    success: { status: 200, description: "Une page d'abonnements", schema: subscriptionListResponseSchema },
    errors: {
      400: "Filtre illisible (détail par paramètre dans `issues`, ex. « Date attendue au format AAAA-MM-JJ »)",
      422: PAGE_ERRORS,
    },
  },
  {
    method: "get",
    path: "/api/admin/subscriptions/{id}",
    file: "app/routes/api.admin.subscriptions.$id.ts",
    operationId: "getSubscription",
    summary:
      "Un abonnement : son client, son adresse de livraison, ses commandes (numéros de renouvellement), ses emails et son historique",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    success: { status: 200, description: "L'abonnement", schema: subscriptionResponseSchema },
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/cancel",
    file: "app/routes/api.admin.subscriptions.$id.cancel.ts",
    operationId: "cancelSubscription",
    summary: "Résilie un abonnement, tout de suite ou à la fin de la période payée",
    description:
      "`now` : l'abonnement prend fin chez Stripe et ici, le client reçoit l'email de résiliation. " +
      "`period_end` : Stripe le résilie à la fin de la période payée (plus aucun prélèvement) ; `cancelAtPeriodEnd` passe à true, " +
      "la résiliation et son email suivent au webhook de Stripe. Redemander `period_end` ne change rien.",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    body: adminSubscriptionCancelSchema,
    success: { status: 200, description: "L'abonnement après la résiliation", schema: subscriptionResponseSchema },
    errors: {
      409: "Abonnement déjà résilié (`code` subscription_canceled) ou en attente de son premier paiement (`code` subscription_incomplete)",
      503: "Service de paiement momentanément indisponible (`code` provider_unavailable)",
    },
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/skip",
    file: "app/routes/api.admin.subscriptions.$id.skip.ts",
    operationId: "skipSubscriptionDelivery",
    summary: SUBSCRIPTION_CHANGE_SUMMARIES.skip,
    description:
      "Saute la prochaine livraison : le prochain renouvellement n'est pas prélevé (Stripe `pause_collection` avec `behavior: void` et `resumes_at` le lendemain), le suivant l'est. Refusé à moins d'un jour du renouvellement. " +
      SUBSCRIPTION_CHANGE_COMMON,
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    body: ADMIN_CHANGE_SCHEMAS.skip,
    success: { status: 200, description: "L'abonnement après le changement", schema: subscriptionResponseSchema },
    errors: SUBSCRIPTION_CHANGE_ERRORS,
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/unskip",
    file: "app/routes/api.admin.subscriptions.$id.unskip.ts",
    operationId: "unskipSubscriptionDelivery",
    summary: SUBSCRIPTION_CHANGE_SUMMARIES.unskip,
    description:
      "Annule le saut de la prochaine livraison, jusqu'à la veille du renouvellement : elle est de nouveau prélevée et livrée. " +
      SUBSCRIPTION_CHANGE_COMMON,
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    body: ADMIN_CHANGE_SCHEMAS.unskip,
    success: { status: 200, description: "L'abonnement après le changement", schema: subscriptionResponseSchema },
    errors: SUBSCRIPTION_CHANGE_ERRORS,
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/pause",
    file: "app/routes/api.admin.subscriptions.$id.pause.ts",
    operationId: "pauseSubscription",
    summary: SUBSCRIPTION_CHANGE_SUMMARIES.pause,
    description:
      "Met l'abonnement en pause pour 1, 2 ou 3 cycles (`cycles`) : ces renouvellements ne sont pas prélevés (Stripe `pause_collection` avec `resumes_at`). " +
      SUBSCRIPTION_CHANGE_COMMON,
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    body: ADMIN_CHANGE_SCHEMAS.pause,
    success: { status: 200, description: "L'abonnement après le changement", schema: subscriptionResponseSchema },
    errors: SUBSCRIPTION_CHANGE_ERRORS,
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/resume",
    file: "app/routes/api.admin.subscriptions.$id.resume.ts",
    operationId: "resumeSubscription",
    summary: SUBSCRIPTION_CHANGE_SUMMARIES.resume,
    description:
      "Reprend tout de suite un abonnement en pause (ou annule un saut de livraison) : le prochain renouvellement est prélevé. " +
      SUBSCRIPTION_CHANGE_COMMON,
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    body: ADMIN_CHANGE_SCHEMAS.resume,
    success: { status: 200, description: "L'abonnement après le changement", schema: subscriptionResponseSchema },
    errors: SUBSCRIPTION_CHANGE_ERRORS,
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/change-pack",
    file: "app/routes/api.admin.subscriptions.$id.change-pack.ts",
    operationId: "changeSubscriptionPack",
    summary: SUBSCRIPTION_CHANGE_SUMMARIES.change_pack,
    description:
      "Change le pack (`packId`, jamais le pack d'essai) à partir du prochain renouvellement, à son prix actuel, sans prorata (Stripe `proration_behavior: none`). " +
      SUBSCRIPTION_CHANGE_COMMON,
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    body: ADMIN_CHANGE_SCHEMAS.change_pack,
    success: { status: 200, description: "L'abonnement après le changement", schema: subscriptionResponseSchema },
    errors: SUBSCRIPTION_CHANGE_ERRORS,
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/change-frequency",
    file: "app/routes/api.admin.subscriptions.$id.change-frequency.ts",
    operationId: "changeSubscriptionFrequency",
    summary: SUBSCRIPTION_CHANGE_SUMMARIES.change_frequency,
    description:
      "Change la fréquence (`intervalWeeks` : 4, 6 ou 8 semaines) à partir du prochain renouvellement : prix Stripe en semaines (`interval_count` 4, 6 ou 8), `proration_behavior: none`, et `trial_end` à la date du prochain renouvellement pour la garder (rien n'est prélevé avant). " +
      SUBSCRIPTION_CHANGE_COMMON,
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    body: ADMIN_CHANGE_SCHEMAS.change_frequency,
    success: { status: 200, description: "L'abonnement après le changement", schema: subscriptionResponseSchema },
    errors: SUBSCRIPTION_CHANGE_ERRORS,
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/reactivate",
    file: "app/routes/api.admin.subscriptions.$id.reactivate.ts",
    operationId: "reactivateSubscription",
    summary: SUBSCRIPTION_CHANGE_SUMMARIES.reactivate,
    description:
      "Réactive un abonnement dont la résiliation est prévue à la fin de la période payée (`cancel_at_period_end: false`), sans nouveau prélèvement. " +
      SUBSCRIPTION_CHANGE_COMMON,
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant de l'abonnement" }],
    body: ADMIN_CHANGE_SCHEMAS.reactivate,
    success: { status: 200, description: "L'abonnement après le changement", schema: subscriptionResponseSchema },
    errors: SUBSCRIPTION_CHANGE_ERRORS,
  },
  {
    method: "get",
    path: "/api/admin/customers/{id}",
    file: "app/routes/api.admin.customers.$id.ts",
    operationId: "getCustomer",
    summary: "Un client et tout ce que la boutique garde de lui : compte, commandes, abonnements, emails, demandes de contact",
    description:
      "Les commandes, abonnements, demandes de contact et emails sont trouvés par le compte et par son adresse email (sans distinction de casse). " +
      "`erasure` dit si l'effacement est possible maintenant, sinon pourquoi ; `stripeErasure` où en est l'effacement chez Stripe ; `audit` liste les exports et effacements de ce client.",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant du client (utilisateur)" }],
    success: { status: 200, description: "Le client", schema: customerDataResponseSchema },
    errors: { 404: "Client introuvable" },
  },
  {
    method: "get",
    path: "/api/admin/customers/{id}/export",
    file: "app/routes/api.admin.customers.$id.export.ts",
    operationId: "exportCustomer",
    summary: "Export des données d'un client (RGPD, articles 15 et 20) : un fichier JSON à télécharger",
    description:
      "Clés en français ; ni mot de passe, ni empreinte, ni identifiant de paiement. L'export est inscrit au journal (`customer.export`).",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant du client (utilisateur)" }],
    success: {
      status: 200,
      description: "Le fichier d'export",
      schema: customerExportResponseSchema,
      headers: { "Content-Disposition": 'attachment; filename="donnees-client-{id}-{AAAA-MM-JJ}.json"' },
    },
    errors: { 404: "Client introuvable (`code` customer_not_found)" },
  },
  {
    method: "post",
    path: "/api/admin/customers/{id}/erase",
    file: "app/routes/api.admin.customers.$id.erase.ts",
    operationId: "eraseCustomer",
    summary: "Efface les données personnelles d'un client (RGPD, article 17)",
    description:
      "Sans corps. En une transaction : le compte (noms, adresse, téléphone, mot de passe ; email et nom d'utilisateur remplacés par `efface-{id}@anonyme.invalid` et `efface-{id}`), " +
      "les noms, email, adresses et téléphones de ses commandes et abonnements, ses demandes de contact (« [effacé] ») et le destinataire et le contenu des emails le concernant. " +
      "Restent les montants, dates, numéros, statuts, le pays de livraison et les factures émises (obligation comptable de 10 ans, Code de commerce L123-22). " +
      "Puis, chez Stripe : le client Stripe (email, téléphone, adresses ; nom « [effacé] »), ses cartes enregistrées (vidées puis retirées) et le `receipt_email` et l'adresse de livraison des PaymentIntents ; " +
      "si Stripe ne répond pas, l'effacement de la boutique est fait quand même et `stripeErasure.status` vaut `pending` : la boutique réessaie seule. " +
      "Inscrit au journal (`customer.erase`, puis `customer.erase_stripe` avec les nombres d'objets Stripe) ; recommencer ne change rien de plus.",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Identifiant du client (utilisateur)" }],
    success: { status: 200, description: "Le client après l'effacement", schema: customerDataResponseSchema },
    errors: {
      404: "Client introuvable (`code` customer_not_found)",
      409:
        "Effacement refusé : commande payée pas encore expédiée (`code` customer_order_unshipped), abonnement actif (`code` customer_subscription_active) " +
        "ou compte administrateur (`code` customer_is_admin) ; chaque empêchement dans `issues`",
    },
  },
  {
    method: "get",
    path: "/api/admin/orders/{id}/refunds",
    file: "app/routes/api.admin.orders.$id.refunds.ts",
    operationId: "listOrderRefunds",
    summary: "Les remboursements d'une commande, le montant remboursé et ce qui reste à rembourser",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Numéro de commande" }],
    success: {
      status: 200,
      description:
        "La commande (vue de l'administration, avec son montant remboursé `refunded`) et ses remboursements, les plus anciens d'abord",
      schema: orderRefundsResponseSchema,
    },
  },
  {
    method: "post",
    path: "/api/admin/orders/{id}/refunds",
    file: "app/routes/api.admin.orders.$id.refunds.ts",
    operationId: "refundOrder",
    summary: "Rembourse une commande payée, en partie ou en totalité, par Stripe",
    description:
      "`amount` est un montant en euros (« 12.50 » ou « 12,50 ») ; absent ou null : tout ce qui reste à rembourser. `reason` (200 caractères au plus) est obligatoire. " +
      "Le montant est d'abord réservé, puis remboursé chez Stripe sur la carte du paiement ; un avoir de ce montant est émis et le client reçoit un email. " +
      "La commande devient « Partiellement remboursée » (`partially_refunded`) ou « Remboursée » (`refunded`). " +
      "Une même clé (en-tête `Idempotency-Key` ou champ `idempotencyKey`, 8 à 100 caractères parmi lettres, chiffres, - et _) ne rembourse qu'une fois : " +
      "la rejouer renvoie le premier remboursement (200, `replayed: true`).",
    tag: "Administration",
    auth: "admin",
    pathParams: [{ name: "id", description: "Numéro de commande" }],
    body: refundSchema,
    success: {
      status: 201,
      description: "Le remboursement, et l'état de la commande après lui",
      schema: refundCreatedResponseSchema,
    },
    errors: {
      404: "Commande introuvable",
      409:
        "Commande non payée (`order_not_paid`), déjà entièrement remboursée (`order_refunded`), plus rien à rembourser (`nothing_to_refund`), " +
        "payée par abonnement (`refund_unavailable`), clé déjà utilisée pour une autre commande ou pour un remboursement échoué, ou remboursement refusé par Stripe (`refund_refused` : rien n'est remboursé)",
      422: "Montant ou motif invalides, ou montant supérieur à ce qui reste à rembourser (`amount_too_large`, le montant restant dans le message)",
      503: "Service de paiement momentanément indisponible (`code` provider_unavailable)",
    },
  },
  {
    method: "get",
    path: "/api/users",
    file: "app/routes/api.users.ts",
    operationId: "listUsers",
    summary: "Utilisateurs (jamais de mot de passe ni d'empreinte), par identifiant",
    description: PAGED_LIST,
    tag: "Administration",
    auth: "admin",
    query: PAGE_QUERY,
    success: { status: 200, description: "Une page d'utilisateurs", schema: userListResponseSchema },
    errors: { 422: PAGE_ERRORS },
  },
  {
    method: "post",
    path: "/api/users",
    file: "app/routes/api.users.ts",
    operationId: "createUser",
    summary: "Crée un utilisateur (mot de passe haché, jamais renvoyé)",
    tag: "Administration",
    auth: "admin",
    body: userCreateSchema,
    success: {
      status: 201,
      description: "L'utilisateur créé, avec son `id`",
      schema: userResponseSchema,
      headers: { Location: "/api/users/{id}" },
    },
    errors: { 409: "Nom d'utilisateur ou adresse email déjà utilisés" },
  },

  // ---- Paramètres
  {
    method: "get",
    path: "/api/settings",
    file: "app/routes/api.settings.ts",
    operationId: "getSettings",
    summary:
      "Les paramètres du site (coordonnées, identité de la société, hébergeur, médiateur, transporteur par défaut, fin de l'offre d'essai)",
    tag: "Paramètres",
    auth: "public",
    success: { status: 200, description: "Les paramètres", schema: settingsResponseSchema },
  },
  {
    method: "patch",
    path: "/api/settings",
    file: "app/routes/api.settings.ts",
    operationId: "updateSettings",
    summary: "Modifie un ou plusieurs paramètres du site",
    description:
      "`trialOfferEndsAt` est la fin de l'offre d'essai : un instant ISO 8601 avec son fuseau (« 2026-11-25T21:30:00+01:00 ») ou une date et une heure de Paris " +
      "(« 2026-11-25T21:30 ») ; null ou vide pour ne plus afficher de bandeau. Le bandeau de la fiche produit compte jusqu'à cet instant, puis disparaît, et le pack d'essai n'est plus vendu " +
      "(`POST /api/cart` et `POST /api/orders` répondent 422) : indiquez la fin réelle de l'offre. " +
      "Identité de la société : `siret` compte 14 chiffres (espaces permis, gardé sous la forme « 921 458 303 00017 ») ; `vatNumber` est le code d'un pays de l'Union " +
      "suivi de 2 à 13 chiffres ou lettres (FR : 2 caractères de clé puis le SIREN) ; `rcsNumber` est le SIREN du SIRET ; `shareCapital` un montant en euros ; " +
      "`mediatorUrl` une adresse https://. Les champs de la forme juridique au médiateur peuvent rester vides (chaîne vide ou null). " +
      "`emailContentRetentionDays` est le nombre de jours (7 à 3650, 90 par défaut) pendant lesquels le contenu des emails envoyés est gardé ; " +
      "passé ce délai, leur HTML et leur texte sont supprimés, leur trace (destinataire, date, objet, commande) reste. " +
      "Un champ invalide répond 422 avec, pour chaque champ, son chemin et un message en français.",
    tag: "Paramètres",
    auth: "admin",
    body: settingsPatchSchema,
    success: { status: 200, description: "Les paramètres après modification", schema: settingsResponseSchema },
  },
  {
    method: "get",
    path: "/api/settings/notifications",
    file: "app/routes/api.settings.notifications.ts",
    operationId: "getNotificationSettings",
    summary: "Les notifications de la boutique : les emails envoyés à l'adresse du site, et le résumé quotidien",
    tag: "Paramètres",
    auth: "admin",
    success: { status: 200, description: "Les notifications", schema: notificationSettingsResponseSchema },
  },
  {
    method: "patch",
    path: "/api/settings/notifications",
    file: "app/routes/api.settings.notifications.ts",
    operationId: "updateNotificationSettings",
    summary: "Coupe ou rétablit une ou plusieurs notifications de la boutique",
    description:
      "Chaque champ vaut true (l'email est envoyé) ou false (coupé). Avec `notifyDailySummary` à true, les notifications sont regroupées en un email " +
      "envoyé chaque matin à 8 h (heure de Paris), seulement s'il y a au moins un événement. Un champ inconnu ou qui n'est pas un booléen répond 422, avec son chemin et un message en français.",
    tag: "Paramètres",
    auth: "admin",
    body: notificationSettingsPatchSchema,
    success: { status: 200, description: "Les notifications après modification", schema: notificationSettingsResponseSchema },
  },

  // ---- Documentation
  {
    method: "get",
    path: "/api/openapi.json",
    file: "app/routes/api.openapi[.]json.ts",
    operationId: "getOpenApiDocument",
    summary: "Ce document OpenAPI 3.1 (page lisible : /docs/api)",
    tag: "Documentation",
    auth: "public",
    success: { status: 200, description: "Le document OpenAPI", schema: openApiDocumentResponseSchema },
  },
];

export const API_VERSION = "1.2.2";

/** What changed in the API, newest first (in the document's description). */
export const API_CHANGELOG = [
  '1.2.2 : une lecture (GET) peut elle aussi répondre 503 avec `Retry-After` et `{ error, issues, code: "busy" }` ' +
    "quand le site est saturé (sur SQLite, plus de 10 s d'attente de la base ; sur les deux bases, quand elle écrit " +
    "elle aussi, comme un compteur de limite) ; le document le dit désormais pour chaque opération.",
  "1.2.1 : une écriture qui attend trop longtemps la base de données (site saturé) répond 503 avec `Retry-After` et " +
    "`{ error, issues, code: \"busy\" }` au lieu d'une erreur 500 ; rien n'a été enregistré, la même requête peut être renvoyée. " +
    "Un email a le statut `canceled` (non envoyé : sa cause ne tenait plus au moment de partir, la raison dans `lastError`), " +
    "et les `counts` de GET /api/admin/emails ont la clé `canceled`.",
  "1.2.0 : GET /api/admin/emails et GET /api/admin/subscriptions sont désormais paginées par curseur, comme les autres listes : " +
    "`{ emails | subscriptions, limit, nextCursor }` (les emails gardent `counts`), la suite aussi dans l'en-tête `Link` ; " +
    "`page`, `pageCount`, `pageSize` et `total` disparaissent. Les paramètres du site ont `emailContentRetentionDays` " +
    "(conservation du contenu des emails envoyés, 90 jours par défaut) ; un email dont le contenu a été supprimé a " +
    "`contentPurgedAfterDays` et `html`, `text` à null.",
  "1.1.0 : GET /api/orders, GET /api/users et GET /api/admin/contacts sont désormais paginées. " +
    "La réponse n'est plus un tableau mais un objet `{ orders | users | contacts, limit, nextCursor }` ; " +
    `sans \`limit\` ni \`cursor\`, la première page (${DEFAULT_PAGE_LIMIT} éléments) et le curseur de la suivante, aussi dans l'en-tête \`Link\`. ` +
    "GET /api/orders accepte une période (`du`, `au`) ; sa recherche `q` porte sur le début de l'email ou son domaine (« @exemple.fr »).",
  "1.0.0 : première version.",
];

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

/** The OpenAPI document of the whole API (built once per process). */
export function getOpenApiDocument() {
  cached ??= buildOpenApiDocument(API_OPERATIONS, { version: API_VERSION, changelog: API_CHANGELOG });
  return cached;
}
