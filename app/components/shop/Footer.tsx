import { Link } from "@remix-run/react";
import type { PublicSettings } from "~/services/settings.server";
import { Logo } from "./Logo";

const COLUMNS = [
  {
    title: "Produits",
    links: [
      { to: "/product/1", label: "Masque au collagène" },
      { to: "/product/1#packs", label: "Coffrets" },
      { to: "/product/1#abonnement", label: "Abonnement" },
    ],
  },
  {
    title: "Aide",
    links: [
      { to: "/livraison", label: "Livraison" },
      { to: "/retours", label: "Retours" },
      { to: "/retractation", label: "Se rétracter du contrat ici" },
      { to: "/faq", label: "FAQ" },
      { to: "/abonnement/resilier", label: "Résilier mon abonnement" },
      { to: "/contact", label: "Contact" },
    ],
  },
  {
    title: "Informations légales",
    links: [
      { to: "/mentions-legales", label: "Mentions légales" },
      { to: "/cgv", label: "Conditions générales de vente" },
      { to: "/politique-confidentialite", label: "Politique de confidentialité" },
    ],
  },
];

export function Footer({ settings }: { settings: PublicSettings }) {
  return (
    <footer className="below-fold mt-16 border-t border-ink/10 bg-sand">
      <div className="container-page grid gap-10 py-12 md:grid-cols-4">
        <div>
          <Logo />
          <p className="mt-3 text-sm leading-relaxed text-ink-soft">{settings.siteDescription}</p>
        </div>
        {COLUMNS.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <h2 className="text-sm font-semibold uppercase tracking-wider text-ink">{col.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {col.links.map((l) => (
                <li key={l.label}>
                  <Link to={l.to} className="text-ink-soft hover:text-rose-700 hover:underline">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-ink/10">
        <div className="container-page flex flex-col gap-2 py-5 text-xs text-ink-soft sm:flex-row sm:items-center sm:justify-between">
          <p>{settings.siteFooterText}</p>
          <p>
            <a href={`mailto:${settings.siteEmail}`} className="hover:underline">
              {settings.siteEmail}
            </a>
            {" · "}
            <a href={`tel:${settings.sitePhone.replace(/[^+0-9]/g, "")}`} className="hover:underline">
              {settings.sitePhone}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
