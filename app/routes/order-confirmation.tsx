import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Confirmation de commande", "Le récapitulatif de votre commande.");

export const headers: HeadersFunction = () => NO_STORE_HEADERS;

/**
 * /order-confirmation?id=123456789 -> /order-confirmation/123456789; without an id -> /.
 * (Also the parent of /order-confirmation/{id}, which it leaves to its child.)
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (params.id !== undefined) return data(null, { headers: NO_STORE_HEADERS });
  const id = new URL(request.url).searchParams.get("id")?.trim();
  if (!id) return redirect("/");
  return redirect(`/order-confirmation/${encodeURIComponent(id.slice(0, 40))}`);
}

export default function OrderConfirmationLayout() {
  return <Outlet />;
}
