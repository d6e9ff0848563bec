/**
 * The shop's small search: the product, its packs, every FAQ entry and the information pages.
 * Pure functions, safe in the browser and on the server; matching ignores accents and case.
 */
import { PRODUCT_ID } from "~/content/brand";
import { ALL_FAQ } from "~/content/faq";
import { formatPrice } from "./money";
import type { ShopPack } from "./packs";

type SearchKind = "produit" | "pack" | "question" | "page";

type SearchEntry = {
  kind: SearchKind;
  title: string;
  summary: string;
  href: string;
  /** Extra words people may type that are not in the title or summary. */
  keywords?: string;
};

type SearchResult = SearchEntry & { score: number };

export const KIND_LABELS: Record<SearchKind, string> = {
  produit: "Produit",
  pack: "Pack",
  question: "Question fréquente",
  page: "Page d'information",
};

/** Information pages of the shop, as listed in search results. */
export const SITE_PAGES: SearchEntry[] = [
  {
    kind: "page",
    title: "Livraison",
    summary: "Livraison gratuite en colis suivi : expédition sous 24 heures, réception en 7 à 10 jours ouvrés.",
    href: "/livraison",
    keywords: "frais de port expedition delai colissimo colis transporteur envoi suivi",
  },
  {
    kind: "page",
    title: "Retours et remboursements",
    summary: "14 jours pour changer d'avis après réception, remboursement sous 14 jours, produit abîmé ou défectueux.",
    href: "/retours",
    keywords: "retour retractation rembourser echange defaut defectueux casse satisfait ou rembourse",
  },
  {
    kind: "page",
    title: "Rétractation : se rétracter du contrat en ligne",
    summary:
      "Exercez votre droit de rétractation en ligne, dans les 14 jours suivant la réception, avec votre numéro de commande et votre email.",
    href: "/retractation",
    keywords: "retractation retracter renoncer annuler commande droit de retractation formulaire 14 jours",
  },
  {
    kind: "page",
    title: "Questions fréquentes",
    summary: "Les réponses à vos questions sur le masque, la commande, la livraison et l'abonnement.",
    href: "/faq",
    keywords: "faq aide questions reponses",
  },
  {
    kind: "page",
    title: "Résilier mon abonnement",
    summary: "Résiliez votre abonnement en ligne, à tout moment et sans frais, avec votre numéro de commande et votre email.",
    href: "/abonnement/resilier",
    keywords: "resilier resiliation annuler arreter stopper desabonner desabonnement prelevement sans engagement",
  },
  {
    kind: "page",
    title: "Suivre ma commande",
    summary: "Saisissez votre numéro de commande pour connaître son état et son numéro de suivi.",
    href: "/track-order",
    keywords: "suivi colis commande numero de suivi ou en est ma commande",
  },
  {
    kind: "page",
    title: "Contact",
    summary: "Écrivez-nous ou appelez-nous : notre service client répond du lundi au samedi.",
    href: "/contact",
    keywords: "service client telephone email adresse horaires message aide",
  },
  {
    kind: "page",
    title: "Conditions générales de vente",
    summary: "Commande, prix, paiement, abonnement, livraison, droit de rétractation et garanties légales.",
    href: "/cgv",
    keywords: "cgv conditions de vente contrat abonnement resiliation retractation garantie paiement stripe mediation",
  },
  {
    kind: "page",
    title: "Mentions légales",
    summary: "Éditeur du site, hébergeur, propriété intellectuelle et coordonnées de Maison Éclat SAS.",
    href: "/mentions-legales",
    keywords: "editeur hebergeur societe siege social rcs directeur de la publication",
  },
  {
    kind: "page",
    title: "Politique de confidentialité",
    summary: "Les données que nous collectons, pourquoi, combien de temps, les cookies et vos droits.",
    href: "/politique-confidentialite",
    keywords: "donnees personnelles rgpd cookies vie privee cnil droits confidentialite",
  },
];

type IndexedProduct = { id: number; name: string; description?: string | null };

const DEFAULT_PRODUCT: IndexedProduct = {
  id: PRODUCT_ID,
  name: "Masque Hydrogel au Collagène",
  description: "Masque en hydrogel au collagène marin, à l'acide hyaluronique et à la niacinamide : hydratation, éclat, fermeté.",
};

type IndexedPack = Pick<ShopPack, "name" | "description" | "masks" | "priceCents" | "crossedOutCents" | "popular">;

/**
 * The searchable index; the loader passes the catalog's product and its packs on sale, so a
 * renamed product is found under its new name and the packs at their current prices.
 */
export function buildSearchIndex(product: IndexedProduct = DEFAULT_PRODUCT, packs: readonly IndexedPack[] = []): SearchEntry[] {
  const productHref = `/product/${product.id}`;
  const lowest = packs.length ? Math.min(...packs.map((p) => p.priceCents)) : null;
  return [
    {
      kind: "produit",
      title: product.name,
      summary: product.description?.trim() || DEFAULT_PRODUCT.description || "",
      href: productHref,
      keywords: `masque visage soin collagene hydrogel anti-rides hydratation eclat fermete${lowest === null ? "" : ` a partir de ${formatPrice(lowest)}`}`,
    },
    ...packs.map<SearchEntry>((pack) => ({
      kind: "pack",
      title: pack.name,
      summary: `${pack.description} ${formatPrice(pack.priceCents)}${pack.crossedOutCents ? ` au lieu de ${formatPrice(pack.crossedOutCents)}` : ""}.`,
      href: `${productHref}#packs`,
      keywords: `pack coffret ${pack.masks} masques ${product.name}${pack.popular ? " best seller" : ""}`,
    })),
    ...ALL_FAQ.map<SearchEntry>((entry) => ({
      kind: "question",
      title: entry.question,
      summary: entry.answer,
      href: `/faq#${faqAnchor(entry.question)}`,
    })),
    ...SITE_PAGES,
  ];
}

export const SEARCH_INDEX: SearchEntry[] = buildSearchIndex();

/** Lower case, without accents or punctuation, single spaces: "Éclat, fermeté !" -> "eclat fermete". */
export function normalize(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Stable anchor of a FAQ question on /faq: "Quels sont les ingrédients ?" -> "quels-sont-les-ingredients". */
export function faqAnchor(question: string): string {
  return normalize(question).replace(/ /g, "-");
}

const STOP_WORDS = new Set([
  "a",
  "au",
  "aux",
  "ce",
  "ces",
  "d",
  "de",
  "des",
  "du",
  "en",
  "est",
  "et",
  "il",
  "j",
  "je",
  "l",
  "la",
  "le",
  "les",
  "m",
  "ma",
  "mes",
  "mon",
  "ne",
  "ou",
  "par",
  "pas",
  "pour",
  "qu",
  "que",
  "qui",
  "s",
  "sa",
  "se",
  "ses",
  "son",
  "sur",
  "t",
  "ta",
  "un",
  "une",
  "vos",
  "votre",
  "y",
]);

/** A light French stemming so that "masques" finds "masque" and "livraisons" finds "livraison". */
function stem(word: string): string {
  return word.length > 3 && word.endsWith("s") ? word.slice(0, -1) : word;
}

/** Significant words of a query, singular, once each; stop words ("de", "la"...) are dropped. */
export function queryTerms(query: string): string[] {
  const words = normalize(query)
    .split(" ")
    .filter((w) => w && !STOP_WORDS.has(w));
  return [...new Set(words.map(stem))];
}

const KIND_ORDER: Record<SearchKind, number> = { produit: 0, pack: 1, page: 2, question: 3 };

/**
 * Entries containing every term of the query at the start of a word (in the title, summary
 * or keywords), best first: a term in the title counts more than one in the text, a whole
 * word more than a word start.
 */
export function search(query: string, index: readonly SearchEntry[] = SEARCH_INDEX): SearchResult[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const results: SearchResult[] = [];
  for (const entry of index) {
    const title = ` ${normalize(entry.title)} `;
    const body = ` ${normalize(entry.summary)} ${normalize(entry.keywords ?? "")} `;
    let score = 0;
    let all = true;
    for (const term of terms) {
      const inTitle = title.includes(` ${term}`);
      const inBody = body.includes(` ${term}`);
      if (!inTitle && !inBody) {
        all = false;
        break;
      }
      const wholeWord = title.includes(` ${term} `) || body.includes(` ${term} `);
      score += (inTitle ? 3 : 1) + (wholeWord ? 1 : 0);
    }
    if (all) results.push({ ...entry, score });
  }
  return results.sort((a, b) => b.score - a.score || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}
