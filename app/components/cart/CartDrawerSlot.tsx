import { lazy, Suspense } from "react";
import { useCartDrawerState, type CartDrawerState } from "./CartDrawerContext";

/** The drawer and the whole cart (lines, steps, payment) load at its first opening, not with every page. */
const LazyCartDrawer = lazy(() => import("./CartDrawer").then((m) => ({ default: m.CartDrawer })));

/** Nothing until the drawer first opens. */
function CartDrawerSlot({ drawer }: { drawer: CartDrawerState }) {
  if (!drawer.isOpen) return null;
  return (
    <Suspense fallback={null}>
      <LazyCartDrawer drawer={drawer} />
    </Suspense>
  );
}

/** Mounted once in root.tsx: the drawer's state, and the drawer when it is open. */
export function CartDrawerHost() {
  const drawer = useCartDrawerState();
  return <CartDrawerSlot drawer={drawer} />;
}
