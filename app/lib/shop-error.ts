/**
 * The one error for refusals a person or an API client can act on: an HTTP status, a
 * stable machine code, a French message, and optionally the form field it concerns.
 *
 * Services throw it; `handleApi` (JSON API) and `actionError` (page actions) turn it into
 * an answer in one place each. It holds no secret, so it is safe on both sides.
 */
export type ShopIssue = { path: string; message: string };

export class ShopError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  /** For a refusal that passes (429, 503): seconds before trying again, sent as Retry-After. */
  readonly retryAfterSeconds?: number;
  /** Several field messages at once (e.g. the expected price and the expected total). */
  readonly issues?: ShopIssue[];

  constructor(
    status: number,
    code: string,
    message: string,
    options: { field?: string; retryAfterSeconds?: number; issues?: ShopIssue[] } = {},
  ) {
    super(message);
    this.name = "ShopError";
    this.status = status;
    this.code = code;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.issues = options.issues;
  }

  /** The API's `issues`: the given ones, else the message on the error's field, else none. */
  apiIssues(): ShopIssue[] {
    if (this.issues?.length) return this.issues;
    return this.field ? [{ path: this.field, message: this.message }] : [];
  }
}

export function isShopError(error: unknown): error is ShopError {
  return error instanceof ShopError;
}
