/**
 * remix-toast's helpers, for the routes' loaders and actions. Routes import them from here, a
 * server module, so that the browser's copy of a route carries none of remix-toast: it brings
 * zod 3 and Remix's cookie code, which would otherwise land in the scripts of every page.
 */
export { jsonWithError, jsonWithSuccess, redirectWithError, redirectWithSuccess, redirectWithWarning } from "remix-toast";
