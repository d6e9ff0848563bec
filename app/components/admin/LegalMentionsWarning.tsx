import { Link } from "@remix-run/react";

/** The dashboard's warning of a live shop whose legal mentions are missing or still the demo company's. */
export function LegalMentionsWarning({ warning }: { warning: { missing: string[]; demoCompany: boolean } | null }) {
  if (!warning) return null;
  return (
    <div
      role="alert"
      className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 sm:p-5"
      data-testid="legal-mentions-warning"
    >
      {warning.missing.length > 0 ? (
        <p>
          <strong className="font-semibold">Mentions obligatoires manquantes : {warning.missing.join(", ")}.</strong> Elles
          doivent figurer dans les mentions légales et les conditions générales de vente.
        </p>
      ) : null}
      {warning.demoCompany ? (
        <p className={warning.missing.length > 0 ? "mt-2" : undefined}>
          <strong className="font-semibold">L'identité de la société est encore celle de la boutique de démonstration.</strong>{" "}
          Remplacez-la par celle de votre société.
        </p>
      ) : null}
      <p className="mt-3">
        <Link to="/admin/settings" className="font-medium underline underline-offset-2">
          Compléter les paramètres du site
        </Link>
      </p>
    </div>
  );
}
