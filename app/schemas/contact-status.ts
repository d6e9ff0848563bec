import { z } from "zod";
import { CONTACT_STATUSES } from "~/lib/statuses";

export const contactStatusField = z.enum(CONTACT_STATUSES, { error: "Statut de demande invalide" });

/** PATCH /api/admin/contacts/{id} and the status dropdowns of /admin/contacts. */
export const contactStatusSchema = z.object({ status: contactStatusField });
