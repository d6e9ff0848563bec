/**
 * The handle of a route whose page shows a whole HTML document in a srcdoc frame (an email's
 * preview): that document, from the route's loader data. The frame runs under the page's
 * Content-Security-Policy, which then allows that document's styles (<style> elements, style attributes) by their hashes
 * (entry.server).
 */
export type FramedHtmlHandle = { framedHtml?: (data: unknown) => string | null | undefined };
