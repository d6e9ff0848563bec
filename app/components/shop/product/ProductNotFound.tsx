import { Link } from "@remix-run/react";
import { PRODUCT_ID } from "~/content/brand";

export function ProductNotFound() {
  return (
    <div className="container-page flex flex-col items-center py-24 text-center">
      <img src="/images/product-fallback.svg" alt="" width={600} height={600} className="h-32 w-32 rounded-full" />
      <h1 className="mt-6 font-serif text-3xl text-ink md:text-4xl">Produit non trouvé</h1>
      <p className="mt-3 max-w-md text-ink-soft">Nous n'avons pas pu trouver le produit que vous cherchez.</p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Link to={`/product/${PRODUCT_ID}`} className="btn-primary">
          Voir le masque au collagène
        </Link>
        <Link to="/" className="btn-secondary">
          Retour à l'accueil
        </Link>
      </div>
    </div>
  );
}
