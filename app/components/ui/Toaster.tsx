import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

export type ToastMessage = {
  message: string;
  description?: string;
  type: "success" | "error" | "info" | "warning";
  /** Names what the toast is about ("payment"), so that fixing it can dismiss it (dismissToast). */
  key?: string;
};

const DURATION = 5000;

/**
 * Where toasts show. On phones, in the page's flow at its top (under the shop's header, above
 * the back office's): a toast pushes the page down and never lies over a button, a link or a
 * field; an open cart drawer lies over it. From 640 px, over the page: at the top in the shop
 * (the cart drawer, on the right, is never under it), bottom right in the back office.
 */
const PLACEMENT = {
  shop: "sm:top-3 sm:justify-center",
  admin: "sm:bottom-6 sm:justify-end",
} as const;

/**
 * One toast visible at a time; a new one replaces the current one. Dismissed after 5 s, by its
 * ×, or when what it reported is fixed (dismissToast). Without JavaScript the × is a link to
 * the same page: the toast travelled in a one-time cookie, so the page comes back without it,
 * and any next page shows none.
 *
 * In the back office a toast reports an action's result (a refund, an order update, a
 * renewal simulation...): focus moves to it, so a keyboard or screen reader user lands on the
 * result, and it stays while it holds the focus (or the pointer).
 */
export function Toaster({ toast, placement = "shop" }: { toast?: ToastMessage | null; placement?: keyof typeof PLACEMENT }) {
  const [current, setCurrent] = useState<ToastMessage | null>(toast ?? null);
  const [held, setHeld] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const focusResult = placement === "admin";

  useEffect(() => {
    if (toast) setCurrent(toast);
  }, [toast]);

  useEffect(() => {
    if (!current || !focusResult) return;
    box.current?.focus({ preventScroll: false });
  }, [current, focusResult]);

  useEffect(() => {
    if (!current || held) return;
    const timer = setTimeout(() => setCurrent(null), DURATION);
    return () => clearTimeout(timer);
  }, [current, held]);

  useEffect(() => {
    if (!current) setHeld(false);
  }, [current]);

  useEffect(() => {
    const onToast = (e: Event) => setCurrent((e as CustomEvent<ToastMessage>).detail);
    const onDismiss = (e: Event) => {
      const key = (e as CustomEvent<string | undefined>).detail;
      setCurrent((shown) => (shown && (key === undefined || shown.key === key) ? null : shown));
    };
    window.addEventListener("shop:toast", onToast);
    window.addEventListener("shop:toast-dismiss", onDismiss);
    return () => {
      window.removeEventListener("shop:toast", onToast);
      window.removeEventListener("shop:toast-dismiss", onDismiss);
    };
  }, []);

  const destructive = current?.type === "error";
  return (
    <div
      aria-live="polite"
      role="status"
      className={`flex justify-center px-4 sm:pointer-events-none sm:fixed sm:inset-x-0 sm:z-[60] ${PLACEMENT[placement]}`}
    >
      {current ? (
        <div
          ref={box}
          data-testid="toast"
          tabIndex={-1}
          onFocus={() => setHeld(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHeld(false);
          }}
          onPointerEnter={() => setHeld(true)}
          onPointerLeave={() => setHeld(false)}
          className={`pointer-events-auto my-2 w-full max-w-sm rounded-xl border p-4 shadow-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-ink sm:my-0 ${
            destructive ? "border-rose-700 bg-rose-700 text-white" : "border-ink/10 bg-white text-ink"
          }`}
        >
          <div className="flex items-start gap-3">
            <div className="flex-1">
              <p className="font-semibold">{current.message}</p>
              {current.description ? (
                <p className={`mt-1 text-sm ${destructive ? "text-white/90" : "text-ink-soft"}`}>{current.description}</p>
              ) : null}
            </div>
            <a
              href={`${location.pathname}${location.search}`}
              role="button"
              onClick={(event) => {
                event.preventDefault();
                setCurrent(null);
              }}
              // A button also answers the space bar.
              onKeyDown={(event) => {
                if (event.key !== " ") return;
                event.preventDefault();
                setCurrent(null);
              }}
              className="-m-1 flex h-8 w-8 shrink-0 items-center justify-center rounded text-lg leading-none no-underline opacity-70 hover:opacity-100"
              aria-label="Fermer la notification"
              data-testid="toast-close"
            >
              ×
            </a>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** Shows a toast from the browser (for fetcher results that do not redirect). */
export function showToast(toast: ToastMessage) {
  window.dispatchEvent(new CustomEvent("shop:toast", { detail: toast }));
}

/** Hides the toast shown about `key` (any toast without a key), once what it reported is fixed. */
export function dismissToast(key?: string) {
  window.dispatchEvent(new CustomEvent("shop:toast-dismiss", { detail: key }));
}
