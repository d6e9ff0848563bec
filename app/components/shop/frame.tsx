import { CartDrawerHost } from "~/components/cart/CartDrawerSlot";
import { ERROR_REFERENCE_ID } from "~/components/ui/hydration";
import { Toaster, type ToastMessage } from "~/components/ui/Toaster";
import type { PublicSettings } from "~/services/settings.server";
import { DemoBanner } from "./DemoBanner";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { BUSY_HEADING, BUSY_MESSAGE } from "~/lib/busy";
import { NOT_FOUND_HEADING } from "~/lib/not-found";

/*
 * The shop's frame around every page (root.tsx), loaded as one module after the page's own
 * scripts (ui/hydration.tsx, `deferred`): the server renders it with the page, the browser
 * hydrates it when this module arrives.
 */

export { SeoTags } from "./seo/SeoTags";

/**
 * The skip link, the demo banner, the header (none in the back office, which has its own) and
 * the toasts: in the page's flow under the header on phones, so that none lies over a control.
 */
export function PageTop({
  cartCount,
  demo,
  adminArea,
  toast,
}: {
  cartCount: number | null;
  demo: boolean;
  adminArea: boolean;
  toast: ToastMessage | null | undefined;
}) {
  return (
    <>
      <a
        href="#contenu"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Aller au contenu
      </a>
      {demo ? <DemoBanner /> : null}
      {adminArea ? null : (
        <div className="contents print:hidden">
          <Header cartCount={cartCount} />
        </div>
      )}
      <div className="contents print:hidden">
        <Toaster toast={toast} placement={adminArea ? "admin" : "shop"} />
      </div>
    </>
  );
}

/** The footer (not in the back office) and the cart drawer. */
export function PageBottom({ settings, adminArea }: { settings: PublicSettings; adminArea: boolean }) {
  return (
    <>
      {adminArea ? null : (
        <div className="contents print:hidden">
          <Footer settings={settings} />
        </div>
      )}
      <CartDrawerHost />
    </>
  );
}

/**
 * The page of an error: not found, the site too busy to record the request (a 503 `busy`,
 * lib/busy.ts), or an unexpected failure (with its reference, the request's id, to quote).
 */
export function ErrorPage({ notFound, busy = false, reference }: { notFound: boolean; busy?: boolean; reference?: string }) {
  return (
    <main id="contenu" className="container-page flex flex-1 flex-col items-center justify-center py-24 text-center">
      <h1 className="font-serif text-3xl">{notFound ? NOT_FOUND_HEADING : busy ? BUSY_HEADING : "Une erreur est survenue"}</h1>
      <p className="mt-4 text-ink-soft">
        {notFound
          ? "La page que vous cherchez n'existe pas ou a été déplacée."
          : busy
            ? BUSY_MESSAGE
            : "Veuillez réessayer dans un instant. Si le problème persiste, contactez-nous."}
      </p>
      {!notFound && !busy && reference ? (
        <p id={ERROR_REFERENCE_ID} data-reference={reference} className="mt-2 text-sm text-ink-soft">
          Référence de l'erreur : <span className="font-mono">{reference}</span>
        </p>
      ) : null}
      <a href="/" className="btn-primary mt-8">
        Retour à l'accueil
      </a>
    </main>
  );
}
