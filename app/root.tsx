import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import { useEffect } from "react";
import { useCartDrawerState } from "~/components/cart/CartDrawerContext";
import { CartDrawerSlot } from "~/components/cart/CartDrawerSlot";
import { DemoBanner } from "~/components/shop/DemoBanner";
import { Footer } from "~/components/shop/Footer";
import { Header } from "~/components/shop/Header";
import { SeoTags } from "~/components/shop/seo/SeoTags";
import { Toaster } from "~/components/ui/Toaster";
import { markRootHydrated } from "~/components/ui/useHydrated";
import { rootData } from "~/http/root-data.server";
import { useNonce } from "~/lib/nonce";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: "Maison Éclat : masques au collagène" },
  { name: "description", content: "Masques hydrogel au collagène : hydratation, éclat, fermeté." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { data, headers } = await rootData(request);
  return json(data, headers ? { headers } : undefined);
}

/** `head`: the canonical link, the link preview and the robots meta of the page (SeoTags). */
function Document({ children, head }: { children: React.ReactNode; head: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="fr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#fbf7f3" />
        <Meta />
        <Links />
        {head}
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  // The back office has its own frame: no shop header and footer under /admin.
  const adminArea = /^\/admin(\/|$)/.test(useLocation().pathname);
  // Invoices and credit notes (route handle `printable`): no demo banner, and nothing but the document in print.
  const printable = useMatches().some((match) => (match.handle as { printable?: boolean } | undefined)?.printable === true);
  const cartDrawer = useCartDrawerState();
  // Marks the page interactive (tests wait for it before clicking).
  useEffect(() => {
    markRootHydrated();
  }, []);
  return (
    <Document head={<SeoTags publicUrl={data.config.publicUrl} siteName={data.settings.siteName} />}>
      <a href="#contenu" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Aller au contenu
      </a>
      {data.config.mode === "demo" && !printable ? <DemoBanner /> : null}
      {adminArea ? null : (
        <div className="contents print:hidden">
          <Header cartCount={data.cartCount} onCartClick={cartDrawer.onCartClick} />
        </div>
      )}
      <main id="contenu" className="flex-1">
        <Outlet />
      </main>
      {adminArea ? null : (
        <div className="contents print:hidden">
          <Footer settings={data.settings} />
        </div>
      )}
      <CartDrawerSlot drawer={cartDrawer} />
      <Toaster toast={data.toast} placement={adminArea ? "admin" : "shop"} />
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Document head={<meta name="robots" content="noindex" />}>
      <main id="contenu" className="container-page flex flex-1 flex-col items-center justify-center py-24 text-center">
        <h1 className="font-serif text-3xl">{notFound ? "404 Page Not Found" : "Une erreur est survenue"}</h1>
        <p className="mt-4 text-ink-soft">
          {notFound
            ? "La page que vous cherchez n'existe pas ou a été déplacée."
            : "Veuillez réessayer dans un instant. Si le problème persiste, contactez-nous."}
        </p>
        <a href="/" className="btn-primary mt-8">
          Retour à l'accueil
        </a>
      </main>
    </Document>
  );
}
