/** Builds real Request objects for calling loaders and actions directly. */
export function formRequest(url: string, fields: Record<string, string>, init: RequestInit = {}) {
  const body = new URLSearchParams(fields);
  return new Request(`http://localhost:3000${url}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost:3000", ...(init.headers ?? {}) },
  });
}

export function jsonRequest(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Request(`http://localhost:3000${url}`, {
    method,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", Origin: "http://localhost:3000", ...headers },
  });
}

export function getRequest(url: string, headers: Record<string, string> = {}) {
  return new Request(`http://localhost:3000${url}`, { headers });
}

/** A loader's or action's arguments; `context` is Remix's load context (the server puts the client's address there). */
export const routeArgs = (request: Request, params: Record<string, string> = {}, context: Record<string, unknown> = {}) => ({
  request,
  params,
  context,
});

/** The load context of a request whose TCP peer is `address` (see app/http/client-address.server.ts). */
export const fromAddress = (address: string) => ({ clientAddress: address });

/** The Response a loader or an action throws (a redirect, a 404...); fails when it throws none. */
export async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}
