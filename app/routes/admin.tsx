import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AdminShell } from "~/components/admin/AdminShell";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { getAdminUser } from "~/services/admin-auth.server";
import { countUnreadContactRequests } from "~/services/contacts.server";
import { countFailedEmails } from "~/services/email/mailbox.server";

/**
 * Frame of the signed-in back office. It does not redirect by itself: every child loader
 * and action calls requireAdmin (so /admin/contacts can add its own 'Accès refusé' toast);
 * for a visitor without a session it renders nothing of its own.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await getAdminUser(request);
  return data(
    {
      admin: admin ? { username: admin.username } : null,
      unreadContacts: admin ? await countUnreadContactRequests() : 0,
      failedEmails: admin ? await countFailedEmails() : 0,
    },
    { headers: NO_STORE_HEADERS },
  );
}

export const headers: HeadersFunction = () => NO_STORE_HEADERS;

export default function AdminLayout() {
  const { admin, unreadContacts, failedEmails } = useLoaderData<typeof loader>();
  if (!admin) return <Outlet />;
  return (
    <AdminShell username={admin.username} unreadContacts={unreadContacts} failedEmails={failedEmails}>
      <Outlet />
    </AdminShell>
  );
}
