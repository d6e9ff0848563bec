import { Form, NavLink, useLocation, useNavigation } from "@remix-run/react";

const NAV = [
  { to: "/admin/dashboard", label: "Tableau de bord" },
  { to: "/admin/orders", label: "Commandes" },
  { to: "/admin/analytique", label: "Analytique" },
  { to: "/admin/subscriptions", label: "Abonnements" },
  { to: "/admin/promotions", label: "Codes promo" },
  { to: "/admin/products", label: "Produits" },
  { to: "/admin/users", label: "Utilisateurs" },
  { to: "/admin/contacts", label: "Demandes de contact" },
  { to: "/admin/emails", label: "Emails" },
  { to: "/admin/settings", label: "Paramètres" },
  { to: "/admin/sessions", label: "Sessions" },
  { to: "/admin/securite", label: "Sécurité" },
  { to: "/admin/sante", label: "Santé de la boutique" },
];

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center justify-between gap-2 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition ${
    isActive ? "bg-ink text-white" : "text-ink-soft hover:bg-slate-100 hover:text-ink"
  }`;

/** Back-office frame: the navigation (left on large screens, a scrollable bar on phones) and the page. */
export function AdminShell({
  username,
  unreadContacts,
  failedEmails = 0,
  children,
}: {
  username: string;
  unreadContacts: number;
  /** Emails whose every attempt failed: shown beside 'Emails'. */
  failedEmails?: number;
  children: React.ReactNode;
}) {
  const navigation = useNavigation();
  const location = useLocation();
  const loadingContacts =
    navigation.state === "loading" &&
    navigation.location.pathname === "/admin/contacts" &&
    location.pathname !== "/admin/contacts";

  return (
    <div className="min-h-screen bg-slate-100 text-ink lg:flex">
      <aside className="border-b border-slate-200 bg-white lg:w-56 lg:shrink-0 lg:border-b-0 lg:border-r">
        <div className="lg:sticky lg:top-0">
          <div className="flex items-center justify-between gap-3 px-4 py-3 lg:block lg:px-5 lg:py-6">
            <div>
              <p className="font-serif text-lg leading-tight">Maison Éclat</p>
              <p className="text-xs text-ink-soft">Back office · {username}</p>
            </div>
            <Form method="post" action="/admin/logout" className="lg:hidden">
              <button
                type="submit"
                className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100"
              >
                Déconnexion
              </button>
            </Form>
          </div>
          <nav aria-label="Administration" className="overflow-x-auto px-2 pb-2 lg:px-3">
            <ul className="flex gap-1 lg:flex-col">
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} className={linkClass} prefetch="none">
                    <span>{item.label}</span>
                    {item.to === "/admin/contacts" && unreadContacts > 0 ? (
                      <span
                        className="rounded-full bg-rose-600 px-2 py-0.5 text-xs font-semibold text-white"
                        aria-label={`${unreadContacts} non lue(s)`}
                      >
                        {unreadContacts}
                      </span>
                    ) : null}
                    {item.to === "/admin/emails" && failedEmails > 0 ? (
                      <span
                        className="rounded-full bg-rose-600 px-2 py-0.5 text-xs font-semibold text-white"
                        aria-label={`${failedEmails} en échec`}
                      >
                        {failedEmails}
                      </span>
                    ) : null}
                  </NavLink>
                </li>
              ))}
              <li className="hidden lg:mt-4 lg:block lg:border-t lg:border-slate-200 lg:pt-4">
                <Form method="post" action="/admin/logout">
                  <button
                    type="submit"
                    className="w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-ink-soft hover:bg-slate-100 hover:text-ink"
                  >
                    Déconnexion
                  </button>
                </Form>
              </li>
            </ul>
          </nav>
        </div>
      </aside>
      <div className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        {loadingContacts ? (
          <p role="status" className="mb-4 rounded-lg bg-white px-4 py-2 text-sm text-ink-soft shadow-sm">
            Chargement des demandes de contact...
          </p>
        ) : null}
        {children}
      </div>
    </div>
  );
}
