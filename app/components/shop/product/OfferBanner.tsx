import { useEffect, useState } from "react";
import { ClockIcon } from "~/components/shop/landing/icons";
import { trialOfferBannerText } from "~/lib/offer-banner";

/**
 * The trial offer's countdown, rendered by the server (right without JavaScript) and kept
 * right while the page stays open: it counts down each minute and goes once the offer ends.
 */
export function OfferBanner({ endsAt, initialText }: { endsAt: string; initialText: string }) {
  const [text, setText] = useState<string | null>(initialText);
  useEffect(() => {
    const update = () => setText(trialOfferBannerText(endsAt));
    update();
    const timer = window.setInterval(update, 30_000);
    return () => window.clearInterval(timer);
  }, [endsAt]);
  if (!text) return null;
  return (
    <p
      data-testid="offer-banner"
      className="flex items-center justify-center gap-2 bg-rose-600 px-4 py-2.5 text-center text-sm font-semibold text-white"
    >
      <ClockIcon className="h-4 w-4 shrink-0" />
      {text}
    </p>
  );
}
