import { useState } from "react";
import { FALLBACK_PRODUCT_IMAGE } from "~/content/brand";

/** Descriptions of our own product pictures; other images get a generic description. */
const IMAGE_DESCRIPTIONS: Record<string, string> = {
  "/images/product-mask.svg": "le masque hydrogel déplié, prêt à poser",
  "/images/product-box.svg": "le coffret Maison Éclat et un sachet de masque",
  "/images/product-texture.svg": "gros plan sur la texture gel du sérum au collagène",
  [FALLBACK_PRODUCT_IMAGE]: "image du produit bientôt disponible",
};

function describe(name: string, src: string, i: number, total: number) {
  const what = IMAGE_DESCRIPTIONS[src];
  return what ? `${name} : ${what}` : `${name}, image ${i + 1} sur ${total}`;
}

/**
 * Main image plus thumbnails. The thumbnails are submit buttons of a GET form
 * (?image=N), so they also work without JavaScript; with it they switch in place.
 */
export function Gallery({ name, images, initialIndex = 0 }: { name: string; images: string[]; initialIndex?: number }) {
  const list = images.length > 0 ? images : [FALLBACK_PRODUCT_IMAGE];
  const [index, setIndex] = useState(initialIndex >= 0 && initialIndex < list.length ? initialIndex : 0);
  const current = list[index];

  return (
    <div className="md:sticky md:top-24 md:self-start">
      <img
        src={current}
        alt={describe(name, current, index, list.length)}
        width={600}
        height={600}
        // The page's largest picture: fetched first (React 18 passes the lowercase attribute as is).
        {...{ fetchpriority: "high" }}
        className="aspect-square w-full rounded-3xl bg-sand object-cover shadow-sm ring-1 ring-ink/5"
        data-testid="gallery-main"
      />
      {list.length > 1 ? (
        <form method="get" className="mt-4 flex gap-3" aria-label="Images du produit">
          {list.map((src, i) => (
            <button
              key={`${src}-${i}`}
              type="submit"
              name="image"
              value={i}
              aria-label={`Afficher l'image ${i + 1} sur ${list.length}`}
              aria-pressed={i === index}
              onClick={(e) => {
                e.preventDefault();
                setIndex(i);
              }}
              className={`overflow-hidden rounded-xl ring-2 transition ${i === index ? "ring-rose-600" : "ring-transparent hover:ring-rose-200"}`}
            >
              <img src={src} alt="" width={80} height={80} className="h-16 w-16 object-cover sm:h-20 sm:w-20" />
            </button>
          ))}
        </form>
      ) : null}
    </div>
  );
}
