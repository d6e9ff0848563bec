import { USAGE } from "./brand";

/** Questions of the landing page (spec: five questions) and of the FAQ page. */
export type FaqEntry = {
  question: string;
  answer: string;
  /** A page of the shop that does what the answer says (shown after it). */
  link?: { to: string; label: string };
};

export const LANDING_FAQ: FaqEntry[] = [
  {
    question: "À quelle fréquence utiliser le masque ?",
    answer: USAGE.advice,
  },
  {
    question: "Convient-il à tous les types de peau ?",
    answer: "Oui. Sa formule douce convient à tous les types de peau, y compris les peaux sensibles, grasses, sèches et matures.",
  },
  {
    question: "Quelle est la durée de conservation ?",
    answer: "Chaque masque se conserve 24 mois dans son sachet fermé, à l'abri de la chaleur et de la lumière.",
  },
  {
    question: "Quels sont les ingrédients ?",
    answer:
      "Collagène marin hydrolysé, acide hyaluronique, niacinamide, extrait d'aloe vera et glycérine végétale, dans un support en hydrogel. Sans parabène ni parfum ajouté.",
  },
  {
    question: "Le masque est-il testé sur les animaux ?",
    answer: "Non. Nos masques ne sont jamais testés sur les animaux, ni leurs ingrédients.",
  },
];

export const MORE_FAQ: FaqEntry[] = [
  {
    question: "Combien de temps garder le masque ?",
    answer:
      "Laissez poser 15 à 20 minutes, puis retirez le masque et massez le sérum restant jusqu'à pénétration. Inutile de rincer.",
  },
  {
    question: "Quels sont les délais de livraison ?",
    answer: "Votre commande est expédiée sous 24 heures et arrive en 7 à 10 jours ouvrés. La livraison est gratuite.",
  },
  {
    question: "Comment fonctionne l'abonnement ?",
    answer:
      "Vous êtes débité aujourd'hui du prix du pack, puis du même montant toutes les 4 semaines à partir du 30e jour. Vous pouvez le résilier en ligne à tout moment, sans frais, sur la page « Résilier mon abonnement » ou depuis le lien de vos emails.",
    link: { to: "/abonnement/resilier", label: "Résilier mon abonnement" },
  },
  {
    question: "Puis-je retourner ma commande ?",
    answer:
      "Oui, vous disposez de 14 jours après réception pour exercer votre droit de rétractation. Vous êtes remboursé sous 14 jours.",
  },
  {
    question: "Comment suivre ma commande ?",
    answer:
      "Rendez-vous sur la page « Suivre ma commande » et saisissez votre numéro de commande, indiqué sur votre page de confirmation.",
  },
  {
    question: "Le paiement est-il sécurisé ?",
    answer:
      "Oui. Le paiement par carte (Visa, Mastercard, American Express) est traité par notre prestataire de paiement certifié ; nous ne voyons jamais vos numéros de carte.",
  },
];

export const ALL_FAQ: FaqEntry[] = [...LANDING_FAQ, ...MORE_FAQ];
