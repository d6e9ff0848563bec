import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";

/**
 * A dialog driven by the URL (e.g. ?id=12): it is in the server-rendered page, so it works
 * without JavaScript; with JavaScript, focus moves into it, Tab stays inside and Escape closes it.
 */
export function Dialog({
  title,
  closeTo,
  children,
  maxWidth = "max-w-[600px]",
  role = "dialog",
}: {
  title: React.ReactNode;
  closeTo: string;
  children: React.ReactNode;
  maxWidth?: string;
  role?: "dialog" | "alertdialog";
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const node = panel.current;
    const first = node?.querySelector<HTMLElement>("[data-autofocus]") ?? node;
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        navigate(closeTo, { preventScrollReset: true, replace: true });
      }
      if (event.key === "Tab" && node) {
        const focusable = [
          ...node.querySelectorAll<HTMLElement>("a[href], button:not([disabled]), select, input, textarea, [tabindex='0']"),
        ];
        if (focusable.length === 0) return;
        const firstEl = focusable[0];
        const lastEl = focusable[focusable.length - 1];
        if (event.shiftKey && document.activeElement === firstEl) {
          event.preventDefault();
          lastEl.focus();
        } else if (!event.shiftKey && document.activeElement === lastEl) {
          event.preventDefault();
          firstEl.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [closeTo, navigate]);

  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-slate-900/50 p-0 sm:items-center sm:p-4">
      <Link
        to={closeTo}
        preventScrollReset
        replace
        className="absolute inset-0 cursor-default"
        aria-hidden="true"
        tabIndex={-1}
      />
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`relative max-h-[90vh] w-full ${maxWidth} overflow-y-auto rounded-t-2xl bg-white p-6 shadow-xl focus:outline-none sm:rounded-2xl`}
      >
        <h2 id={titleId} className="pr-8 text-lg font-semibold">
          {title}
        </h2>
        <Link
          to={closeTo}
          preventScrollReset
          replace
          className="absolute right-4 top-4 rounded p-1 text-xl leading-none text-ink-soft hover:text-ink"
          aria-label="Fermer la fenêtre"
        >
          ×
        </Link>
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}
