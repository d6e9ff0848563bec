/**
 * A page's loader or action called in a test, answered as a Response, as Remix sends it: a
 * Response as it is; `data(value, init)` as its JSON with the init's status and headers; a plain
 * value as its JSON with a 200. The tests then read status, headers and body the same way for
 * every page.
 */
export function asResponses<Args extends unknown[]>(route: (...args: Args) => unknown): (...args: Args) => Promise<Response> {
  return async (...args) => toResponse(await route(...args));
}

export function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (isDataWithInit(result)) return Response.json(result.data, result.init ?? undefined);
  return Response.json(result);
}

/** What Remix's `data(value, init)` returns. */
function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}
