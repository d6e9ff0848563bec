import { useFetcher, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { CartLoaderData } from "./cart-data";
import { CART_DRAWER_REQUEST } from "./cart-drawer-request";
import type { CartStep } from "./steps";

type AddResult = { ok: boolean; intent: string };

/** The product page's order form posts with this fetcher key; the drawer opens when it succeeds. */
const ADD_TO_CART_FETCHER_KEY = "add-to-cart";
/** The drawer's copy of the /panier loader data, refreshed by Remix after every cart change. */
const CART_DATA_FETCHER_KEY = "cart-data";

/**
 * State of the cart drawer, created once (CartDrawerHost): open/close, current step and the cart data.
 * Without JavaScript none of this runs and the header's cart link goes to /panier.
 */
export function useCartDrawerState() {
  const [isOpen, setOpen] = useState(false);
  const [step, setStep] = useState<CartStep>("panier");
  const cartFetcher = useFetcher<CartLoaderData>({ key: CART_DATA_FETCHER_KEY });
  const addFetcher = useFetcher<AddResult>({ key: ADD_TO_CART_FETCHER_KEY });
  const location = useLocation();

  const loadRef = useRef(cartFetcher.load);
  loadRef.current = cartFetcher.load;
  // Loaded at each opening (another tab may have changed the cart); the last data shows meanwhile.
  const reload = useCallback(() => loadRef.current("/panier"), []);

  const open = useCallback(
    (at: CartStep = "panier") => {
      setStep(at);
      setOpen(true);
      reload();
    },
    [reload],
  );
  const close = useCallback(() => setOpen(false), []);

  // The header's cart link (requestCartDrawer): open the drawer instead of leaving the page,
  // except on /panier itself.
  const pathname = location.pathname;
  useEffect(() => {
    const onRequest = (event: Event) => {
      if (pathname === "/panier") return;
      event.preventDefault();
      open("panier");
    };
    window.addEventListener(CART_DRAWER_REQUEST, onRequest);
    return () => window.removeEventListener(CART_DRAWER_REQUEST, onRequest);
  }, [pathname, open]);

  // A successful add-to-cart from the product page opens the drawer on the fresh cart.
  const addSeen = useRef<unknown>(null);
  useEffect(() => {
    const data = addFetcher.data;
    if (addFetcher.state !== "idle" || !data || addSeen.current === data) return;
    addSeen.current = data;
    if (data.ok && data.intent === "add") {
      reload();
      setStep("panier");
      setOpen(true);
    }
  }, [addFetcher.state, addFetcher.data, reload]);

  // Leaving the page (a link in the drawer, the confirmation after payment) closes it.
  const path = `${location.pathname}${location.search}`;
  const lastPath = useRef(path);
  useEffect(() => {
    if (lastPath.current !== path) {
      lastPath.current = path;
      setOpen(false);
    }
  }, [path]);

  const cart = cartFetcher.data?.cart;
  const loading = cartFetcher.state !== "idle";
  return { isOpen, open, close, step, setStep, cart, loading };
}

export type CartDrawerState = ReturnType<typeof useCartDrawerState>;
