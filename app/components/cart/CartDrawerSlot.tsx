import { lazy, Suspense } from "react";
import type { CartDrawerState } from "./CartDrawerContext";

/** The drawer and the whole cart (lines, steps, payment) load at its first opening, not with every page. */
const LazyCartDrawer = lazy(() => import("./CartDrawer").then((m) => ({ default: m.CartDrawer })));

/** Fetches the drawer's code ahead of a likely opening (the cart link is hovered or focused). */
export function preloadCartDrawer() {
  void import("./CartDrawer");
}

/** Mounted once in root.tsx: nothing until the drawer first opens. */
export function CartDrawerSlot({ drawer }: { drawer: CartDrawerState }) {
  if (!drawer.isOpen) return null;
  return (
    <Suspense fallback={null}>
      <LazyCartDrawer drawer={drawer} />
    </Suspense>
  );
}
