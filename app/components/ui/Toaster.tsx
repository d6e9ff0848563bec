import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";

export type ToastMessage = {
  message: string;
  description?: string;
  type: "success" | "error" | "info" | "warning";
  /** Names what the toast is about ("payment"), so that fixing it can dismiss it (dismissToast). */
  key?: string;
};

const DURATION = 5000;

/**
 * Where toasts show. In the shop: at the top of the screen, above the header, on every width:
 * the pay button, the inline errors, the cart drawer (on the right) and the totals are never
 * under it. In the back office: at the top on phones, bottom right from 640 px.
 */
const PLACEMENT = {
  shop: "top-2 justify-center sm:top-3",
  admin: "top-2 justify-center sm:bottom-6 sm:top-auto sm:justify-end",
} as const;

/**
 * One toast visible at a time; a new one replaces the current one. Dismissed after 5 s, by its
 * ×, or when what it reported is fixed (dismissToast). Without JavaScript the × is a link to
 * the same page: the toast travelled in a one-time cookie, so the page comes back without it.
 */
export function Toaster({ toast, placement = "shop" }: { toast?: ToastMessage | null; placement?: keyof typeof PLACEMENT }) {
  const [current, setCurrent] = useState<ToastMessage | null>(toast ?? null);
  const location = useLocation();

  useEffect(() => {
    if (toast) setCurrent(toast);
  }, [toast]);

  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent(null), DURATION);
    return () => clearTimeout(timer);
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
      className={`pointer-events-none fixed inset-x-0 z-[60] flex px-4 ${PLACEMENT[placement]}`}
    >
      {current ? (
        <div
          data-testid="toast"
          className={`pointer-events-auto w-full max-w-sm rounded-xl border p-4 shadow-lg ${
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
