import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { NewLinkForm } from "./NewLinkForm";

/**
 * /mon-abonnement without a working link: a link that is not ours, an expired one, none at
 * all, or the answer to « Recevoir un nouveau lien ». Each offers the form that sends a fresh
 * link by email, and the online cancellation that needs no link.
 */
export type LinkProblemKind = "invalid" | "expired" | "missing" | "sent";

const TEXTS: Record<LinkProblemKind, { title: string; text: string }> = {
  invalid: {
    title: "Lien introuvable",
    text: "Ce lien ne correspond à aucun abonnement. Vérifiez qu'il a été copié en entier depuis l'un de nos emails, ou demandez-en un nouveau ci-dessous.",
  },
  expired: {
    title: "Ce lien a expiré",
    text: "Pour protéger votre abonnement, les liens de nos emails ne fonctionnent que quelques jours. Demandez-en un nouveau ci-dessous : il vous est envoyé par email.",
  },
  missing: {
    title: "Mon abonnement",
    text: "Votre abonnement se gère avec le lien personnel de nos emails. Vous ne le trouvez plus, ou il a expiré ? Demandez-en un nouveau ci-dessous.",
  },
  sent: {
    title: "Vérifiez votre boîte email",
    text: "",
  },
};

export function LinkProblem({
  kind,
  sentMessage,
  lastResult,
}: {
  kind: LinkProblemKind;
  sentMessage: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { title, text } = TEXTS[kind];
  return (
    <div className="container-page py-16 text-center md:py-24">
      <h1 className="font-serif text-3xl md:text-4xl">{title}</h1>
      {kind === "sent" ? (
        <p role="status" data-testid="new-link-sent" className="mx-auto mt-4 max-w-xl rounded-xl bg-sage-100 p-4 text-sage-700">
          {sentMessage}
        </p>
      ) : (
        <p className="mx-auto mt-4 max-w-xl text-ink-soft">{text}</p>
      )}
      <NewLinkForm lastResult={lastResult} />
      <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
        <Link to="/abonnement/resilier" className="btn-secondary">
          Résilier avec mon numéro de commande
        </Link>
        <Link to="/contact" className="btn-secondary">
          Nous contacter
        </Link>
      </div>
    </div>
  );
}
