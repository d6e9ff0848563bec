import type { Subscription } from "~/db/schema";
import { actionError } from "~/http/action-errors.server";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { ShopError } from "~/lib/shop-error";
import { getDb } from "~/db/client.server";
import type { z } from "zod";
import { adminReasonSchema, changeFrequencySchema, changePackSchema, pauseSchema } from "~/schemas/subscription-actions";
import { findSubscription } from "~/services/subscriptions/record.server";
import type { SubscriptionActor } from "~/services/subscriptions/history.server";
import {
  changeSubscriptionFrequency,
  changeSubscriptionPack,
  pauseSubscription,
  reactivateSubscription,
  resumeSubscription,
  skipNextDelivery,
  undoSkip,
  type SubscriptionChange,
} from "~/services/subscriptions/self-service.server";
import { log } from "~/log.server";

/**
 * The subscription changes of a page form (intent + fields), by the subscriber or by the shop:
 * the same schemas as the API. Answers with a redirect and a toast (post/redirect/get): the
 * change's title and sentence, or the French reason of a refusal.
 */

export const SELF_SERVICE_INTENTS = [
  "skip",
  "unskip",
  "pause",
  "resume",
  "change_pack",
  "change_frequency",
  "reactivate",
] as const;

export function isSelfServiceIntent(intent: unknown): intent is (typeof SELF_SERVICE_INTENTS)[number] {
  return typeof intent === "string" && (SELF_SERVICE_INTENTS as readonly string[]).includes(intent);
}

function parse<S extends z.ZodType>(schema: S, fields: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(fields);
  if (!result.success) {
    throw new ShopError(422, "invalid_input", result.error.issues.map((i) => i.message).join(" "), {
      issues: result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  return result.data;
}

/** Runs the form's change on the subscription. */
export async function runSelfServiceIntent(
  intent: (typeof SELF_SERVICE_INTENTS)[number],
  record: Subscription,
  fields: Record<string, unknown>,
  actor: SubscriptionActor,
): Promise<SubscriptionChange> {
  switch (intent) {
    case "skip":
      return await skipNextDelivery(record, actor);
    case "unskip":
      return await undoSkip(record, actor);
    case "pause":
      return await pauseSubscription(record, parse(pauseSchema, fields), actor);
    case "resume":
      return await resumeSubscription(record, actor);
    case "change_pack":
      return await changeSubscriptionPack(record, parse(changePackSchema, fields), actor);
    case "change_frequency":
      return await changeSubscriptionFrequency(record, parse(changeFrequencySchema, fields), actor);
    case "reactivate":
      return await reactivateSubscription(record, actor);
  }
}

/** The page's answer: back to `back` with the change confirmed, or with why it was refused. */
export async function selfServiceAction(
  intent: (typeof SELF_SERVICE_INTENTS)[number],
  record: Subscription,
  formData: FormData,
  actor: SubscriptionActor,
  back: string,
  init?: ResponseInit,
): Promise<Response> {
  try {
    const change = await runSelfServiceIntent(intent, record, Object.fromEntries(formData), actor);
    return await redirectWithSuccess(back, { message: change.title, description: change.summary }, init);
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) log.error({ err: error, intent }, "subscription change failed");
    return await redirectWithError(
      back,
      {
        message: "Modification non enregistrée",
        description: refusal?.message ?? "La modification n'a pas pu être enregistrée. Veuillez réessayer dans un instant.",
      },
      init,
    );
  }
}

/**
 * The back office's form: the same changes, with the reason the shop gives (required, written in
 * the history). A missing reason is refused with its French message.
 */
export async function adminSelfServiceAction(
  intent: (typeof SELF_SERVICE_INTENTS)[number],
  subscriptionId: number,
  formData: FormData,
  back: string,
): Promise<Response> {
  const reason = adminReasonSchema.safeParse({ reason: formData.get("reason") ?? "" });
  if (!reason.success) {
    return await redirectWithError(back, {
      message: "Modification non enregistrée",
      description: reason.error.issues[0].message,
    });
  }
  const record = await findSubscription(getDb(), subscriptionId);
  if (!record) throw new Response("Abonnement introuvable", { status: 404 });
  return await selfServiceAction(intent, record, formData, { kind: "admin", reason: reason.data.reason }, back);
}

/** POST /api/admin/subscriptions/{id}/… : the shop's change, with its reason (a parsed body). */
export async function adminSelfServiceApi(
  intent: (typeof SELF_SERVICE_INTENTS)[number],
  subscriptionId: number,
  body: { reason: string } & Record<string, unknown>,
): Promise<SubscriptionChange> {
  const record = await findSubscription(getDb(), subscriptionId);
  if (!record) throw new ShopError(404, "subscription_not_found", "Abonnement introuvable");
  return await runSelfServiceIntent(intent, record, body, { kind: "admin", reason: body.reason });
}
