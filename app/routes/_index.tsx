import type { MetaFunction } from "@remix-run/node";
import { useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { deferred } from "~/components/ui/hydration";
import { pageMeta } from "~/lib/meta";
import { landingLoader } from "~/pages/landing.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Masque hydrogel au collagène : hydratation, éclat, fermeté",
    "Le masque hydrogel au collagène marin qui hydrate, ravive l'éclat et raffermit la peau en 20 minutes. Coffret d'essai, livraison gratuite, satisfait ou remboursé.",
  );

export const loader = landingLoader;

/**
 * The sections' code is not among the page's scripts: their HTML comes with the page and they
 * hydrate when their module arrives (ui/hydration.tsx).
 */
const LandingPage = deferred(() => import("~/components/shop/landing/LandingPage").then((m) => m.LandingPage));

/** A client-side navigation to the landing page fetches the sections' code with the data (if it fails, rendering the page tries again). */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [data] = await Promise.all([serverLoader<typeof loader>(), LandingPage.preload().catch(() => null)]);
  return data;
}

export default function Index() {
  const { trial } = useLoaderData<typeof loader>();
  return <LandingPage trial={trial} />;
}
