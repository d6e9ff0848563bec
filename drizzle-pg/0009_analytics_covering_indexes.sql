DROP INDEX "invoices_issued_idx";--> statement-breakpoint
DROP INDEX "orders_paid_idx";--> statement-breakpoint
CREATE INDEX "order_items_pack_sales_idx" ON "order_items" USING btree ("order_id","variant_name","product_name","quantity","unit_price_cents");--> statement-breakpoint
CREATE INDEX "orders_funnel_idx" ON "orders" USING btree ("created_at","renewal_number","paid_at","stripe_payment_intent_id","stripe_subscription_id");--> statement-breakpoint
CREATE INDEX "orders_subscription_kind_idx" ON "orders" USING btree ("id","subscription_id","is_subscription");--> statement-breakpoint
CREATE INDEX "invoices_issued_idx" ON "invoices" USING btree ("issued_at","kind","order_id","total_including_cents","total_excluding_cents");--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at","renewal_number","stripe_invoice_id");