import { redirect } from "@remix-run/node";
import { NO_STORE_HEADERS } from "~/http/cache-control";

/** /admin is the dashboard (the contacts page's back button points here). */
export async function loader() {
  return redirect("/admin/dashboard", { headers: NO_STORE_HEADERS });
}
