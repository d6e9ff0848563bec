import { ShopError, type ShopIssue } from "~/lib/shop-error";

/** The refusals of an order's creation and checkout update, each with its HTTP status. */

type OrderErrorCode =
  | "product_not_found"
  | "out_of_stock"
  | "invalid_pack"
  | "not_sold"
  | "empty_cart"
  | "already_paid"
  | "too_many_lines"
  | "quantity_limit"
  | "price_mismatch"
  | "trial_used"
  | "trial_one_off_only"
  | "trial_ended";

const ORDER_ERROR_STATUS: Record<OrderErrorCode, number> = {
  product_not_found: 404,
  out_of_stock: 409,
  invalid_pack: 422,
  not_sold: 409,
  empty_cart: 422,
  already_paid: 409,
  too_many_lines: 422,
  quantity_limit: 422,
  price_mismatch: 422,
  trial_used: 409,
  trial_one_off_only: 422,
  trial_ended: 422,
};

/** A refusal a shopper or API client can act on; the message is French and safe to show. */
export class OrderError extends ShopError {
  declare readonly code: OrderErrorCode;

  constructor(code: OrderErrorCode, message: string, options: { field?: string; issues?: ShopIssue[] } = {}) {
    super(ORDER_ERROR_STATUS[code], code, message, options);
    this.name = "OrderError";
  }
}
