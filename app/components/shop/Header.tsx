import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { requestCartDrawer } from "~/components/cart/cart-drawer-request";
import { Logo } from "./Logo";
import { useCartCount } from "./useCartCount";

const NAV = [
  { to: "/product/1", label: "Masque au collagène" },
  { to: "/track-order", label: "Suivre ma commande" },
  { to: "/contact", label: "Contact" },
];

function CartIcon() {
  return (
    <svg
      aria-hidden="true"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6 7h12l-1 13H7L6 7Z" />
      <path d="M9 7a3 3 0 0 1 6 0" />
    </svg>
  );
}

function SearchIcon() {
  return (
    <svg
      aria-hidden="true"
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
    >
      <circle cx="11" cy="11" r="6.5" />
      <path d="m16 16 4.5 4.5" />
    </svg>
  );
}

/** The cart link opens the cart drawer (a plain click), or goes to /panier. */
function onCartClick(event: React.MouseEvent) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (requestCartDrawer()) event.preventDefault();
}

/**
 * The mobile menu is a <details> element: it opens and closes without JavaScript,
 * and closes itself on navigation when JavaScript runs. The cart's count is the root loader's,
 * or on a page shared by every visitor the `cart_count` cookie's (useCartCount).
 */
export function Header({ cartCount: fromLoader }: { cartCount: number | null }) {
  const cartCount = useCartCount(fromLoader);
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // Closed after a navigation, not when the header hydrates: a menu opened meanwhile stays open.
  const path = `${location.pathname}${location.search}`;
  const shownPath = useRef(path);
  useEffect(() => {
    if (shownPath.current === path) return;
    shownPath.current = path;
    if (menu.current) menu.current.open = false;
  }, [path]);

  return (
    <header className="sticky top-0 z-30 border-b border-ink/10 bg-ivory/95 backdrop-blur">
      <div className="container-page flex h-16 items-center justify-between gap-4">
        <details ref={menu} className="group md:hidden">
          <summary
            className="flex h-11 w-11 cursor-pointer list-none items-center justify-center rounded-full hover:bg-sand [&::-webkit-details-marker]:hidden"
            aria-label="Ouvrir le menu"
          >
            <svg
              aria-hidden="true"
              width="24"
              height="24"
              viewBox="0 0 24 24"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            >
              <path className="group-open:hidden" d="M4 7h16M4 12h16M4 17h16" />
              <path className="hidden group-open:block" d="M6 6l12 12M18 6 6 18" />
            </svg>
          </summary>
          <nav aria-label="Menu mobile" className="absolute inset-x-0 top-16 border-b border-ink/10 bg-ivory px-4 pb-4 shadow-lg">
            <ul className="flex flex-col">
              {NAV.map((item) => (
                <li key={item.to}>
                  <Link
                    to={item.to}
                    className="block border-b border-ink/5 py-3 text-base font-medium"
                    onClick={() => menu.current && (menu.current.open = false)}
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </details>

        <Link to="/" aria-label="Maison Éclat, accueil" className="shrink-0">
          <Logo />
        </Link>

        <nav aria-label="Navigation principale" className="hidden md:block">
          <ul className="flex items-center gap-8 text-sm font-medium">
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={({ isActive }) => `py-2 hover:text-rose-700 ${isActive ? "text-rose-700" : ""}`}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="flex items-center gap-1">
          <Link
            to="/recherche"
            aria-label="Rechercher"
            className="flex h-11 w-11 items-center justify-center rounded-full hover:bg-sand"
          >
            <SearchIcon />
          </Link>
          <Link
            to="/panier"
            onClick={onCartClick}
            aria-label={cartCount > 0 ? `Panier, ${cartCount} article${cartCount > 1 ? "s" : ""}` : "Panier"}
            className="relative flex h-11 w-11 items-center justify-center rounded-full hover:bg-sand"
            data-testid="cart-button"
          >
            <CartIcon />
            {cartCount > 0 ? (
              <span
                data-testid="cart-count"
                className="absolute right-0.5 top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-rose-600 px-1 text-[11px] font-bold text-white"
              >
                {cartCount}
              </span>
            ) : null}
          </Link>
        </div>
      </div>
    </header>
  );
}
