import { redirect } from "@remix-run/node";

/** /admin is the dashboard (the contacts page's back button points here). */
export async function loader() {
  return redirect("/admin/dashboard", { headers: { "Cache-Control": "no-store" } });
}
