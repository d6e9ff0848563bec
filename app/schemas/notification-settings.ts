import { z } from "zod";
import { OWNER_NOTIFICATION_SETTINGS } from "~/lib/owner-notifications";

const BOOLEAN_MESSAGE = "Chaque notification vaut true (envoyée) ou false (coupée).";

/** A checkbox of the form (« on » when ticked, absent when not) or a JSON boolean (the API). */
const switchField = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], { error: BOOLEAN_MESSAGE })
  .optional()
  .transform((value) => value === true || value === "on" || value === "true");

const fields = Object.fromEntries(
  [...OWNER_NOTIFICATION_SETTINGS, "notifyDailySummary"].map((name) => [name, switchField]),
) as Record<(typeof OWNER_NOTIFICATION_SETTINGS)[number] | "notifyDailySummary", typeof switchField>;

/** The « Notifications » form of /admin/settings: a box left unticked switches its email off. */
export const notificationSettingsSchema = z.object(fields);

export type NotificationSettingsInput = z.infer<typeof notificationSettingsSchema>;

/** PATCH /api/settings/notifications: any of the switches, as JSON booleans, nothing else. */
export const notificationSettingsPatchSchema = z
  .object(
    Object.fromEntries(
      [...OWNER_NOTIFICATION_SETTINGS, "notifyDailySummary"].map((name) => [name, z.boolean({ error: BOOLEAN_MESSAGE })]),
    ) as Record<keyof NotificationSettingsInput, z.ZodBoolean>,
  )
  .partial()
  .strict();
