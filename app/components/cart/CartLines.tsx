import { useFetcher } from "@remix-run/react";
import { formatPrice } from "~/lib/money";
import type { CartLineView } from "~/services/cart.server";

const FALLBACK_IMAGE = "/images/product-mask.svg";

function TrashIcon() {
  return (
    <svg
      aria-hidden="true"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
    </svg>
  );
}

function TruckIcon() {
  return (
    <svg
      aria-hidden="true"
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M3 6h11v10H3zM14 10h4l3 3v3h-7" />
      <circle cx="7" cy="18" r="1.6" />
      <circle cx="17.5" cy="18" r="1.6" />
    </svg>
  );
}

/** One small form per button, posting to the cart action (with a redirect for visitors without JavaScript). */
function QuantityButton({
  line,
  quantity,
  label,
  children,
  disabled,
}: {
  line: CartLineView;
  quantity: number;
  label: string;
  children: React.ReactNode;
  disabled?: boolean;
}) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action="/panier">
      <input type="hidden" name="intent" value="set-quantity" />
      <input type="hidden" name="lineId" value={line.id} />
      <input type="hidden" name="quantity" value={quantity} />
      <input type="hidden" name="redirectTo" value="/panier" />
      <button
        type="submit"
        aria-label={label}
        disabled={disabled}
        className="flex h-9 w-9 items-center justify-center rounded-full text-lg leading-none hover:bg-sand disabled:cursor-not-allowed disabled:opacity-40"
      >
        {children}
      </button>
    </fetcher.Form>
  );
}

function RemoveButton({ line }: { line: CartLineView }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action="/panier">
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="lineId" value={line.id} />
      <input type="hidden" name="redirectTo" value="/panier" />
      <button
        type="submit"
        aria-label={`Retirer ${line.variantName ?? line.productName} du panier`}
        className="flex h-9 items-center gap-1 rounded-full px-2 text-sm text-ink-soft hover:bg-sand hover:text-rose-700"
      >
        <TrashIcon />
        <span>Retirer</span>
      </button>
    </fetcher.Form>
  );
}

function CartLineItem({ line }: { line: CartLineView }) {
  const discounted = line.originalPriceCents != null && line.originalPriceCents > line.unitPriceCents;
  return (
    <li className="flex gap-4 py-4" data-testid="cart-line">
      <img
        src={line.image ?? FALLBACK_IMAGE}
        alt=""
        width={80}
        height={80}
        loading="lazy"
        className="h-20 w-20 shrink-0 rounded-xl bg-sand object-cover"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="font-semibold leading-snug">{line.productName}</p>
            {line.variantName ? <p className="text-sm text-ink-soft">{line.variantName}</p> : null}
          </div>
          <p className="shrink-0 text-right">
            <span className="font-semibold" data-testid="cart-line-price">
              {formatPrice(line.lineTotalCents)}
            </span>
            {discounted ? (
              <span className="block text-xs text-ink-soft line-through">
                <span className="sr-only">Prix initial : </span>
                {formatPrice(line.originalPriceCents! * line.quantity)}
              </span>
            ) : null}
          </p>
        </div>
        <p className="flex items-center gap-1.5 text-xs text-sage-700">
          <TruckIcon />
          Livraison en colis suivi
        </p>
        <div className="mt-1 flex items-center justify-between gap-2">
          <div className="flex items-center rounded-full border border-ink/15 bg-white">
            <QuantityButton line={line} quantity={line.quantity - 1} label="Diminuer la quantité">
              −
            </QuantityButton>
            <span className="min-w-8 text-center text-sm font-semibold" aria-live="polite">
              <span className="sr-only">Quantité : </span>
              {line.quantity}
            </span>
            <QuantityButton
              line={line}
              quantity={line.quantity + 1}
              label="Augmenter la quantité"
              disabled={line.quantity >= line.maxQuantity}
            >
              +
            </QuantityButton>
          </div>
          <RemoveButton line={line} />
        </div>
        {line.quantityNote ? (
          <p className="text-xs text-ink-soft" data-testid="cart-line-note">
            {line.quantityNote}
          </p>
        ) : null}
      </div>
    </li>
  );
}

export function CartLines({ lines }: { lines: CartLineView[] }) {
  return (
    <ul className="divide-y divide-ink/10" aria-label="Articles du panier">
      {lines.map((line) => (
        <CartLineItem key={line.id} line={line} />
      ))}
    </ul>
  );
}
