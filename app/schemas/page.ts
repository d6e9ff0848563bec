import { z } from "zod";

/** A page of an API list: `limit` (default 50, at most 200) and the opaque `cursor` of the previous answer. */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "Un nombre entier est attendu." })
    .int({ error: "Un nombre entier est attendu." })
    .min(1, { error: "Au moins 1." })
    .max(MAX_PAGE_LIMIT, { error: `Au plus ${MAX_PAGE_LIMIT}.` })
    .default(DEFAULT_PAGE_LIMIT),
  cursor: z
    .string()
    .max(512, { error: "Curseur invalide : reprenez la valeur « nextCursor » de la page précédente." })
    .optional(),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;
