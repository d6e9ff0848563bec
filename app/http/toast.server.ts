import { data } from "@remix-run/node";
import { jsonWithError, jsonWithSuccess } from "remix-toast";

/**
 * remix-toast's helpers, for the routes' loaders and actions. Routes import them from here, a
 * server module, so that the browser's copy of a route carries none of remix-toast: it brings
 * zod 3 and Remix's cookie code, which would otherwise land in the scripts of every page.
 */
export { redirectWithError, redirectWithSuccess, redirectWithWarning } from "remix-toast";

type ToastInput = Parameters<typeof jsonWithSuccess>[1];

/**
 * An action's data with a message shown once (remix-toast's cookie): the data as single fetch
 * sends it (`data()`), the message's cookie and the given status and headers with it.
 */
async function withToast<T>(make: typeof jsonWithSuccess, value: T, toast: ToastInput, init?: ResponseInit) {
  const response = await make(null, toast, init);
  return data(value, { status: response.status, headers: response.headers });
}

export function dataWithSuccess<T>(value: T, toast: ToastInput, init?: ResponseInit) {
  return withToast(jsonWithSuccess, value, toast, init);
}

export function dataWithError<T>(value: T, toast: ToastInput, init?: ResponseInit) {
  return withToast(jsonWithError, value, toast, init);
}
