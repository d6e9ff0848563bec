/**
 * The one error for refusals a person or an API client can act on: an HTTP status, a
 * stable machine code, a French message, and optionally the form field it concerns.
 *
 * Services throw it; `handleApi` (JSON API) and `actionError` (page actions) turn it into
 * an answer in one place each. It holds no secret, so it is safe on both sides.
 */
export class ShopError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  /** For a refusal that passes (429, 503): seconds before trying again, sent as Retry-After. */
  readonly retryAfterSeconds?: number;

  constructor(status: number, code: string, message: string, options: { field?: string; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = "ShopError";
    this.status = status;
    this.code = code;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isShopError(error: unknown): error is ShopError {
  return error instanceof ShopError;
}
