import { useEffect, useState } from "react";

type ToastMessage = { message: string; description?: string; type: "success" | "error" | "info" | "warning" };

const DURATION = 5000;

/** One toast visible at a time; a new one replaces the current one. Dismissed after 5 s. */
export function Toaster({ toast }: { toast?: ToastMessage | null }) {
  const [current, setCurrent] = useState<ToastMessage | null>(toast ?? null);

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
    window.addEventListener("shop:toast", onToast);
    return () => window.removeEventListener("shop:toast", onToast);
  }, []);

  const destructive = current?.type === "error";
  return (
    <div aria-live="polite" role="status" className="pointer-events-none fixed inset-x-0 bottom-4 z-[60] flex justify-center px-4 sm:bottom-6 sm:justify-end">
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
              {current.description ? <p className={`mt-1 text-sm ${destructive ? "text-white/90" : "text-ink-soft"}`}>{current.description}</p> : null}
            </div>
            <button type="button" onClick={() => setCurrent(null)} className="rounded p-1 text-lg leading-none opacity-70 hover:opacity-100" aria-label="Fermer la notification">
              ×
            </button>
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
