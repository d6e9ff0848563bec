import { lazy, useEffect, useRef, useState } from "react";
import { Cart } from "./Cart";

/** Loaded when a shopper reaches the delivery step, not with every page. */
const LazyDeliveryForm = lazy(() => import("./DeliveryForm").then((m) => ({ default: m.DeliveryForm })));
import type { CartDrawerState } from "./CartDrawerContext";
import type { DeliveryForm as DeliveryFormComponent } from "./DeliveryForm";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]):not([tabindex="-1"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The modal cart: role=dialog, labelled by its title, focus kept inside, Escape and the backdrop close it. */
function DrawerPanel({ drawer }: { drawer: CartDrawerState }) {
  const panel = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  const { close } = drawer;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const { overflow } = document.body.style;
    document.body.style.overflow = "hidden";
    panel.current?.querySelector<HTMLElement>("[data-testid=cart-close]")?.focus();
    const frame = requestAnimationFrame(() => setShown(true));
    return () => {
      cancelAnimationFrame(frame);
      document.body.style.overflow = overflow;
      if (previous && document.contains(previous)) previous.focus();
    };
  }, []);

  // A new step: move the focus to its title, so screen readers announce it.
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    panel.current?.querySelector<HTMLElement>("#cart-drawer-title")?.focus();
  }, [drawer.step]);

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === "Escape") {
      event.stopPropagation();
      close();
      return;
    }
    if (event.key !== "Tab" || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (el) => el.offsetParent !== null || el === document.activeElement,
    );
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && (document.activeElement === first || !panel.current.contains(document.activeElement))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="fixed inset-0 z-50" onKeyDown={onKeyDown}>
      <div
        aria-hidden="true"
        onClick={close}
        className={`absolute inset-0 bg-ink/40 transition-opacity duration-200 motion-reduce:transition-none ${shown ? "opacity-100" : "opacity-0"}`}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby="cart-drawer-title"
        data-testid="cart-drawer"
        className={`absolute inset-y-0 right-0 flex w-full max-w-md flex-col bg-ivory shadow-2xl transition-transform duration-200 ease-out motion-reduce:transition-none ${
          shown ? "translate-x-0" : "translate-x-full"
        }`}
      >
        <Cart
          mode="drawer"
          cart={drawer.cart}
          loading={drawer.loading}
          step={drawer.step}
          onStepChange={drawer.setStep}
          onClose={close}
          headingId="cart-drawer-title"
          deliveryForm={LazyDeliveryForm as unknown as typeof DeliveryFormComponent}
        />
      </div>
    </div>
  );
}

/** The drawer's panel (its module is loaded at the first opening: see CartDrawerSlot). */
export function CartDrawer({ drawer }: { drawer: CartDrawerState }) {
  return drawer.isOpen ? <DrawerPanel drawer={drawer} /> : null;
}
