import { z } from "zod";
import { EMAIL_KINDS, EMAIL_STATUSES } from "~/lib/email-kinds";
import { parseIdOrNull } from "~/lib/ids";
import { safeText } from "./text";

/**
 * Filters of the admin mailbox (/admin/emails) and of GET /api/admin/emails (query string):
 * status, kind, a part of the recipient's address, an order number, the page. A value that
 * cannot be read is dropped, as on the order list.
 */
const emailFiltersSchema = z.object({
  status: z.enum(EMAIL_STATUSES).optional().catch(undefined),
  kind: z.enum(EMAIL_KINDS).optional().catch(undefined),
  to: safeText().trim().max(254).optional().catch(undefined),
  order: safeText()
    .trim()
    .transform((value) => parseIdOrNull(value.replace(/^#/, "")) ?? undefined)
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(100000).optional().catch(undefined),
});

export type EmailFilters = z.infer<typeof emailFiltersSchema>;

export const EMAIL_FILTER_NAMES = ["status", "kind", "to", "order", "page"] as const;

export function readEmailFilters(url: URL): EmailFilters {
  const raw = Object.fromEntries(EMAIL_FILTER_NAMES.map((k) => [k, url.searchParams.get(k) || undefined]));
  const filters = emailFiltersSchema.parse(raw);
  if (!filters.to) delete filters.to;
  return filters;
}
