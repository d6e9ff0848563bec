import { data } from "@remix-run/node";
import type { Subscription } from "~/db/schema";
import { actionError } from "~/http/action-errors.server";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { log } from "~/log.server";
import { CARD_FORM_NEEDS_JAVASCRIPT } from "~/lib/cards";
import { completeCardChange, startCardChange } from "~/services/payments/subscription-card.server";

/**
 * « Changer de carte » on /mon-abonnement, in two posts:
 * - `card-start`: a SetupIntent for the card form (its client secret answered in the page's
 *   data, never in a URL). The card itself is typed into Stripe's field, which needs JavaScript:
 *   without it (the form's `js` field is set by the page's script only) the answer says so, and
 *   no SetupIntent is made;
 * - `card-done`: the browser's SetupIntent once Stripe.js confirmed it; the shop reads it back
 *   from Stripe and answers with a redirect and a toast (the card, and the renewal retried on it).
 */

export const CARD_INTENTS = ["card-start", "card-done"] as const;
export type CardIntent = (typeof CARD_INTENTS)[number];

export function isCardIntent(intent: unknown): intent is CardIntent {
  return typeof intent === "string" && (CARD_INTENTS as readonly string[]).includes(intent);
}

export type CardStepData = { cardSetup: { clientSecret: string } | null; cardProblem: string | null };

export async function cardChangeAction(
  intent: CardIntent,
  record: Subscription,
  formData: FormData,
  back: string,
  headers: Record<string, string>,
): Promise<Response | ReturnType<typeof data<CardStepData>>> {
  if (intent === "card-start") {
    if (formData.get("js") !== "1") {
      return data<CardStepData>({ cardSetup: null, cardProblem: CARD_FORM_NEEDS_JAVASCRIPT }, { headers });
    }
    try {
      const { clientSecret } = await startCardChange(record);
      return data<CardStepData>({ cardSetup: { clientSecret }, cardProblem: null }, { headers });
    } catch (error) {
      const refusal = actionError(error);
      if (!refusal) log.error({ err: error }, "card change could not start");
      return data<CardStepData>(
        {
          cardSetup: null,
          cardProblem: refusal?.message ?? "Le changement de carte est momentanément indisponible. Réessayez dans un instant.",
        },
        { status: refusal?.status ?? 503, headers },
      );
    }
  }
  const init = { headers: { "X-Remix-Replace": "true", ...headers } };
  try {
    const change = await completeCardChange(record, String(formData.get("setupIntent") ?? ""), { kind: "customer" });
    if (change.retry?.outcome === "failed") {
      return await redirectWithError(
        back,
        { message: "Carte enregistrée, renouvellement toujours impayé", description: change.summary },
        init,
      );
    }
    return await redirectWithSuccess(
      back,
      { message: "Carte enregistrée", description: change.summary || `Carte enregistrée : ${change.card}.` },
      init,
    );
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) log.error({ err: error }, "card change could not complete");
    return await redirectWithError(
      back,
      {
        message: "Carte non enregistrée",
        description: refusal?.message ?? "La carte n'a pas pu être enregistrée. Veuillez réessayer dans un instant.",
      },
      init,
    );
  }
}
