import { useFetcher } from "@remix-run/react";
import { useId } from "react";
import type { CartPromotionView } from "~/services/promotions/cart.server";

type PromoAnswer = { ok: boolean; error?: string };

/**
 * The cart's « Code promo » field (drawer and /panier; a plain form without JavaScript): a code
 * to apply, or the code applied with where it is valid, or the reason it is refused.
 */
export function PromoCode({ promotion, redirectTo = "/panier" }: { promotion: CartPromotionView | null; redirectTo?: string }) {
  const fetcher = useFetcher<PromoAnswer>();
  const id = useId();
  const busy = fetcher.state !== "idle";
  const formatError = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return (
    <div className="space-y-2 text-sm" data-testid="promo-code">
      {promotion ? (
        <div className="flex flex-wrap items-start justify-between gap-2 rounded-xl bg-sand/60 px-3 py-2">
          <div>
            <p>
              Code promo <strong data-testid="promo-code-value">{promotion.code}</strong>
            </p>
            {promotion.refusal ? (
              <p role="alert" className="font-medium text-rose-700" data-testid="promo-code-refusal">
                {promotion.refusal}
              </p>
            ) : (
              <p className="text-ink-soft">{promotion.note}</p>
            )}
          </div>
          <fetcher.Form method="post" action="/panier/code-promo">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button
              type="submit"
              className="min-h-11 text-ink-soft underline underline-offset-2 hover:text-rose-700"
              disabled={busy}
            >
              Retirer le code
            </button>
          </fetcher.Form>
        </div>
      ) : (
        <fetcher.Form method="post" action="/panier/code-promo" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="apply" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <div className="min-w-0 flex-1">
            <label htmlFor={`${id}-code`} className="mb-1 block font-medium">
              Code promo
            </label>
            <input
              id={`${id}-code`}
              name="code"
              required
              maxLength={32}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              aria-invalid={formatError ? true : undefined}
              aria-describedby={formatError ? `${id}-error` : undefined}
              className="field-input w-full uppercase"
            />
          </div>
          <button type="submit" className="btn-secondary min-h-11" disabled={busy}>
            Appliquer
          </button>
        </fetcher.Form>
      )}
      {formatError ? (
        <p id={`${id}-error`} role="alert" className="text-rose-700">
          {formatError}
        </p>
      ) : null}
    </div>
  );
}
