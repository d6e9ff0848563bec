import type { MetaFunction } from "@remix-run/node";
import { Link, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Paiement réussi", "Votre paiement a bien été reçu.");

const REDIRECT_DELAY = 5000;

export default function Success() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/"), REDIRECT_DELAY);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <div className="container-page flex flex-col items-center py-24 text-center">
      {/* Without JavaScript the browser still goes home after 5 s. */}
      <noscript>
        <meta httpEquiv="refresh" content="5;url=/" />
      </noscript>
      <div className="flex h-16 w-16 items-center justify-center rounded-full bg-sage-100 text-sage-700" aria-hidden="true">
        <svg
          width="32"
          height="32"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="m5 12 5 5 9-10" />
        </svg>
      </div>
      <h1 className="mt-6 font-serif text-4xl">Paiement réussi !</h1>
      <p className="mt-4 max-w-md text-ink-soft">
        Merci pour votre achat. Vous allez être redirigé vers l'accueil dans 5 secondes.
      </p>
      <Link to="/" className="btn-primary mt-8">
        Retour à l'accueil
      </Link>
    </div>
  );
}
