DROP INDEX "orders_created_idx";--> statement-breakpoint
CREATE INDEX "contact_requests_email_lower_idx" ON "contact_requests" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "contact_requests_status_idx" ON "contact_requests" USING btree ("status");--> statement-breakpoint
CREATE INDEX "emails_to_lower_idx" ON "emails" USING btree (lower("to_address"));--> statement-breakpoint
CREATE INDEX "emails_updated_idx" ON "emails" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "orders_created_payment_idx" ON "orders" USING btree ("created_at","payment_status");--> statement-breakpoint
CREATE INDEX "orders_email_lower_idx" ON "orders" USING btree (lower("customer_email"),"payment_status","created_at");--> statement-breakpoint
CREATE INDEX "orders_email_domain_idx" ON "orders" USING btree (lower(substr("customer_email", strpos("customer_email", '@'))),"payment_status","created_at");--> statement-breakpoint
CREATE INDEX "orders_payment_created_idx" ON "orders" USING btree ("payment_status","created_at");--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "orders" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscriptions_email_lower_idx" ON "subscriptions" USING btree (lower("customer_email"));--> statement-breakpoint
CREATE INDEX "subscriptions_created_idx" ON "subscriptions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_status_idx" ON "subscriptions" USING btree ("status","cancel_at_period_end","amount_cents");--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));