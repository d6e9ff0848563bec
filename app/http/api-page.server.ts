import { pageQuerySchema, type PageQuery } from "~/schemas/page";
import { apiError, apiJson, zodIssues } from "./api.server";

/** The `limit` and `cursor` of an API list's query, or a thrown 422 with the French reason. */
export function readPageQuery(url: URL): PageQuery {
  const parsed = pageQuerySchema.safeParse({
    limit: url.searchParams.get("limit") ?? undefined,
    cursor: url.searchParams.get("cursor") ?? undefined,
  });
  if (!parsed.success) throw apiError(422, "Pagination invalide", zodIssues(parsed.error));
  return parsed.data;
}

/**
 * A page of an API list: the body holds the items under `key`, the `limit` and the `nextCursor`
 * (null on the last page); a next page is also linked as `Link: <…>; rel="next"`, the same URL
 * with that cursor.
 */
export function apiPage<K extends string, T, E extends Record<string, unknown> = Record<never, never>>(
  request: Request,
  key: K,
  page: { items: T[]; nextCursor: string | null; limit: number },
  /** What the list says besides its page (the mailbox's counts per status). */
  extra?: E,
) {
  const headers = new Headers();
  if (page.nextCursor) {
    const url = new URL(request.url);
    url.searchParams.set("cursor", page.nextCursor);
    headers.set("Link", `<${url.pathname}${url.search}>; rel="next"`);
  }
  const body = { [key]: page.items, limit: page.limit, nextCursor: page.nextCursor, ...extra } as Record<K, T[]> & {
    limit: number;
    nextCursor: string | null;
  } & E;
  return apiJson(body, { headers });
}
