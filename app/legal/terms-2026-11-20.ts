import { DELIVERY, OPENING_HOURS } from "~/content/brand";
import { addressOnOneLine, companyDescription, rcsLine, urlLabel, type ShopContact } from "~/lib/company";
import type { TermsOfSale } from "./terms-types";
import { withdrawalForm } from "./withdrawal-form";

/**
 * The terms of sale that took effect on 20 November 2026. Never edit a published version: an
 * order keeps the version it was made under (orders.terms_version), and its customer must be
 * able to read that text again. Write a new file for a new version (see terms-of-sale.ts).
 * The seller's identity and its mediator come from the settings, like its contact details.
 */
export function terms20261120(settings: ShopContact): TermsOfSale {
  const address = addressOnOneLine(settings.siteAddress);
  const hours = OPENING_HOURS.map((h) => `${h.days.toLowerCase()} : ${h.hours.toLowerCase()}`).join(" ; ");
  const contact = { link: "/contact", text: "Contact" };
  const rcs = rcsLine(settings);

  return {
    version: "2026-11-20",
    title: "Conditions générales de vente",
    intro: [
      "Les présentes conditions s'appliquent à toute commande passée sur notre site. Merci de les lire avant de commander : passer commande vaut acceptation de ces conditions.",
    ],
    sections: [
      {
        id: "objet",
        title: "Objet",
        blocks: [
          {
            kind: "paragraph",
            content: [
              `Les présentes conditions générales de vente (CGV) régissent les ventes conclues à distance, sur le site ${settings.siteName}, entre la société ${companyDescription(settings)}${rcs ? `, immatriculée au ${rcs}` : ""}, dont le siège social est situé ${address} (ci-après « ${settings.siteName} » ou « nous »), et toute personne physique agissant en qualité de consommateur (ci-après « vous » ou « le client »).`,
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Les CGV applicables sont celles en vigueur à la date de votre commande. Elles peuvent être consultées, enregistrées et imprimées à tout moment depuis cette page. Les informations sur l'éditeur du site figurent dans les ",
              { link: "/mentions-legales", text: "mentions légales" },
              ".",
            ],
          },
        ],
      },
      {
        id: "produits",
        title: "Produits",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "Nous vendons des masques hydrogel au collagène pour le visage, des produits cosmétiques vendus par packs. Leurs caractéristiques essentielles (composition, mode d'emploi, précautions, contenance) sont présentées sur la ",
              { link: "/product/1", text: "fiche produit" },
              " et rappelées sur l'emballage. Les photographies sont aussi fidèles que possible mais n'ont pas de valeur contractuelle.",
            ],
          },
          {
            kind: "paragraph",
            content: ["Les produits sont proposés dans la limite des stocks disponibles, en trois formats :"],
          },
          {
            kind: "list",
            items: [
              ["3 masques d'essai (3 masques au total)"],
              ["6 masques + 2 offerts (8 masques au total)"],
              ["9 masques + 3 offerts (12 masques au total)"],
            ],
          },
        ],
      },
      {
        id: "prix",
        title: "Prix",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "Les prix sont indiqués en euros, toutes taxes comprises (TVA française incluse). La livraison est gratuite : aucun frais de port n'est ajouté au prix affiché. Le prix à payer est celui affiché dans votre panier au moment où vous validez votre commande.",
            ],
          },
          {
            kind: "list",
            // The prices of 20 November 2026, as published: a published version never changes.
            items: [
              ["3 masques d'essai : 0,99€ au lieu de 15,99€"],
              ["6 masques + 2 offerts : 25,90€ au lieu de 31,80€"],
              ["9 masques + 3 offerts : 32,90€ au lieu de 47,70€"],
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Nous pouvons modifier nos prix à tout moment ; les produits sont facturés au prix en vigueur lors de la validation de la commande. Une offre promotionnelle est valable pendant la durée indiquée sur le site.",
            ],
          },
        ],
      },
      {
        id: "commande",
        title: "Commande",
        blocks: [
          { kind: "paragraph", content: ["Pour commander, vous :"] },
          {
            kind: "list",
            items: [
              ["choisissez votre pack sur la fiche produit, en achat unique ou en abonnement, puis l'ajoutez au panier ;"],
              ["vérifiez le contenu et le montant de votre panier, que vous pouvez encore modifier ;"],
              ["renseignez vos informations de livraison ;"],
              ["réglez votre commande par carte bancaire."],
            ],
          },
          {
            kind: "paragraph",
            content: [
              "La vente est conclue dès la confirmation du paiement. Une page de confirmation récapitule alors votre commande et indique son numéro : conservez-le, il vous permet de ",
              { link: "/track-order", text: "suivre votre commande" },
              " et de nous contacter à son sujet. Nous archivons les commandes sur un support fiable et durable ; vous pouvez en obtenir une copie sur simple demande.",
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Nous nous réservons le droit de refuser ou d'annuler une commande en cas de litige existant avec le client, de paiement refusé ou de commande manifestement anormale.",
            ],
          },
        ],
      },
      {
        id: "paiement",
        title: "Paiement",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "Le paiement s'effectue en ligne par carte bancaire : Visa, Mastercard et American Express sont acceptées. Il est traité par notre prestataire de paiement Stripe, sur une connexion chiffrée. Vos numéros de carte sont saisis et conservés uniquement chez Stripe : nous n'y avons jamais accès.",
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Votre compte est débité lors de la validation de la commande. En cas de refus de la banque ou d'erreur de saisie, la commande n'est pas validée et vous pouvez réessayer avec la même carte ou une autre carte.",
            ],
          },
        ],
      },
      {
        id: "abonnement",
        title: "Abonnement",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "Sur la fiche produit, vous pouvez choisir l'abonnement plutôt que l'achat unique. Vous y souscrivez en cochant expressément la case d'acceptation de ses conditions, qui n'est jamais cochée par défaut. L'abonnement fonctionne ainsi :",
            ],
          },
          {
            kind: "list",
            items: [
              ["le prix du pack choisi est débité le jour de la commande, et ce premier pack vous est expédié aussitôt ;"],
              [
                "à partir du 30",
                { sup: "e" },
                " jour, le même montant est débité toutes les 4 semaines, et un nouveau pack vous est expédié à chaque échéance, avec la même livraison gratuite ;",
              ],
              ["l'abonnement est sans engagement de durée : vous pouvez l'annuler à tout moment, sans frais ni justification."],
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Pour l'annuler, écrivez-nous depuis la page ",
              contact,
              " ou à ",
              { link: `mailto:${settings.siteEmail}`, text: settings.siteEmail },
              `, en indiquant votre nom et votre numéro de commande, ou appelez-nous au ${settings.sitePhone}. L'annulation prend effet dès réception de votre demande : aucune échéance n'est débitée ensuite, et nous vous confirmons l'annulation. Les packs déjà payés restent dus et vous sont livrés.`,
            ],
          },
        ],
      },
      {
        id: "livraison",
        title: "Livraison",
        blocks: [
          {
            kind: "paragraph",
            content: [
              `La livraison est gratuite. Nous livrons en France, à l'adresse indiquée lors de la commande, en colis suivi. Votre commande est expédiée sous ${DELIVERY.shippedWithin} après la confirmation du paiement et vous parvient en ${DELIVERY.arrival}. Le détail figure sur la page `,
              { link: "/livraison", text: "Livraison" },
              ".",
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Vérifiez votre colis à réception. En cas de colis abîmé, de produit manquant ou de retard de livraison, contactez-nous : si le colis ne vous parvient pas dans un délai raisonnable, vous pouvez annuler la commande dans les conditions prévues par l'article L. 216-6 du Code de la consommation et être intégralement remboursé. Les risques de perte ou d'endommagement vous sont transférés lorsque vous prenez physiquement possession du colis.",
            ],
          },
        ],
      },
      {
        id: "retractation",
        title: "Droit de rétractation",
        blocks: [
          {
            kind: "paragraph",
            content: [
              `Conformément à l'article L. 221-18 du Code de la consommation, vous disposez d'un délai de ${DELIVERY.withdrawalDays} jours à compter de la réception de votre commande pour vous rétracter, sans avoir à justifier de motif. Pour un abonnement, ce délai court à compter de la réception du premier pack.`,
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Pour exercer ce droit, informez-nous de votre décision par une déclaration dénuée d'ambiguïté, depuis la page ",
              contact,
              `, par email à ${settings.siteEmail} ou par courrier à l'adresse de notre siège. Vous pouvez utiliser le modèle de formulaire de rétractation ci-dessous (annexe à l'article R. 221-1 du Code de la consommation), sans que cela soit obligatoire.`,
            ],
          },
          {
            kind: "paragraph",
            content: [
              `Renvoyez ensuite les produits au plus tard 14 jours après nous avoir informés de votre décision ; les frais de retour sont à votre charge. Nous vous remboursons la totalité des sommes versées dans les ${DELIVERY.refundDays} jours suivant la réception de votre demande, par le même moyen de paiement. Nous pouvons différer le remboursement jusqu'à réception des produits ou de la preuve de leur expédition.`,
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Pour des raisons d'hygiène et de protection de la santé, le droit de rétractation ne peut être exercé pour les sachets de masques ouverts après la livraison (article L. 221-28, 5° du Code de la consommation) : seuls les sachets encore scellés peuvent être retournés. Votre responsabilité peut être engagée en cas de dépréciation des produits résultant de manipulations autres que celles nécessaires pour établir leur nature et leurs caractéristiques. Voir aussi la page ",
              { link: "/retours", text: "Retours" },
              ".",
            ],
          },
          { kind: "withdrawalForm", ...withdrawalForm(settings) },
        ],
      },
      {
        id: "garanties",
        title: "Garanties légales",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "Indépendamment de tout geste commercial, vous bénéficiez des garanties légales suivantes, que nous mettons en œuvre sans frais pour vous.",
            ],
          },
          {
            kind: "paragraph",
            content: [
              { strong: "Garantie légale de conformité." },
              " Vous disposez d'un délai de deux ans à compter de la délivrance du bien pour obtenir la mise en œuvre de la garantie légale de conformité en cas d'apparition d'un défaut de conformité. Durant ce délai, vous n'êtes tenu d'établir que l'existence du défaut de conformité et non la date de son apparition. La garantie vous donne droit à la réparation ou au remplacement du bien dans un délai de trente jours suivant votre demande, sans frais et sans inconvénient majeur pour vous ; à défaut, à une réduction du prix ou à la résolution du contrat avec remboursement intégral. Elle est régie par les articles L. 217-1 à L. 217-32 du Code de la consommation. Le vendeur qui fait obstacle de mauvaise foi à sa mise en œuvre encourt une amende civile d'un montant maximal de 300 000 euros, qui peut être porté jusqu'à 10 % du chiffre d'affaires moyen annuel (article L. 241-5 du Code de la consommation).",
            ],
          },
          {
            kind: "paragraph",
            content: [
              { strong: "Garantie des vices cachés." },
              " Vous bénéficiez également de la garantie légale des vices cachés (articles 1641 à 1649 du Code civil) pendant deux ans à compter de la découverte du défaut. Vous pouvez alors choisir entre la résolution de la vente et une réduction du prix.",
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Pour un produit abîmé ou défectueux à la réception, signalez-le-nous de préférence dans les 14 jours, photo à l'appui : nous vous le remplaçons ou vous le remboursons, frais de retour à notre charge.",
            ],
          },
        ],
      },
      {
        id: "service-client",
        title: "Service client",
        blocks: [
          {
            kind: "paragraph",
            content: [
              `Notre service client répond à vos questions et réclamations (${hours}) depuis la page `,
              contact,
              " ou aux coordonnées suivantes :",
            ],
          },
          { kind: "contact", name: settings.legalName || settings.siteName, contact: settings },
        ],
      },
      {
        id: "responsabilite",
        title: "Responsabilité",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "Nos produits sont des cosmétiques à usage externe. Respectez le mode d'emploi et les précautions figurant sur la fiche produit et l'emballage. Avant une première utilisation, en particulier si vous avez la peau réactive ou des allergies connues, faites un essai sur une petite zone de peau ; en cas de réaction, cessez l'utilisation.",
            ],
          },
          {
            kind: "paragraph",
            content: [
              "Notre responsabilité ne saurait être engagée en cas d'utilisation non conforme, ni en cas d'inexécution imputable à un cas de force majeure, au fait imprévisible et insurmontable d'un tiers ou à votre fait. Elle reste entière dans les cas prévus par la loi, notamment au titre des garanties légales.",
            ],
          },
        ],
      },
      {
        id: "donnees",
        title: "Données personnelles",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "Les données que vous nous communiquez lors de votre commande sont nécessaires à son traitement, à sa livraison et à la gestion de la relation client. Elles sont traitées conformément au règlement général sur la protection des données (RGPD) et à la loi Informatique et Libertés. Vous disposez notamment d'un droit d'accès, de rectification et d'effacement. Tout est détaillé dans notre ",
              { link: "/politique-confidentialite", text: "politique de confidentialité" },
              ".",
            ],
          },
        ],
      },
      {
        id: "mediation",
        title: "Médiation de la consommation",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "En cas de litige, adressez d'abord une réclamation écrite à notre service client : nous cherchons toujours une solution amiable. Si aucune solution n'est trouvée, vous pouvez recourir gratuitement, dans un délai d'un an à compter de votre réclamation écrite, au médiateur de la consommation dont nous relevons (articles L. 612-1 et suivants du Code de la consommation) :",
            ],
          },
          {
            kind: "paragraph",
            content: [
              [settings.mediatorName, addressOnOneLine(settings.mediatorAddress)].filter(Boolean).join(", "),
              ...(settings.mediatorUrl ? [", ", { link: settings.mediatorUrl, text: urlLabel(settings.mediatorUrl) }] : []),
              ".",
            ],
          },
        ],
      },
      {
        id: "droit-applicable",
        title: "Droit applicable",
        blocks: [
          {
            kind: "paragraph",
            content: [
              "Les présentes CGV sont soumises au droit français. Elles sont rédigées en langue française, qui fait foi. À défaut de solution amiable, tout litige relève des juridictions françaises compétentes ; en tant que consommateur, vous pouvez saisir la juridiction du lieu où vous demeuriez lors de la conclusion du contrat ou de la survenance du fait dommageable. Vous conservez en tout état de cause le bénéfice des dispositions impératives de la loi de votre pays de résidence.",
            ],
          },
        ],
      },
    ],
  };
}
