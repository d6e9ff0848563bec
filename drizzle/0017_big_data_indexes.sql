DROP INDEX `orders_created_idx`;--> statement-breakpoint
CREATE INDEX `orders_created_payment_idx` ON `orders` (`created_at`,`payment_status`);--> statement-breakpoint
CREATE INDEX `orders_email_lower_idx` ON `orders` (lower("customer_email"),`payment_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_email_domain_idx` ON `orders` (lower(substr("customer_email", instr("customer_email", '@'))),`payment_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_payment_created_idx` ON `orders` (`payment_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`);--> statement-breakpoint
CREATE INDEX `contact_requests_email_lower_idx` ON `contact_requests` (lower("email"));--> statement-breakpoint
CREATE INDEX `contact_requests_status_idx` ON `contact_requests` (`status`);--> statement-breakpoint
CREATE INDEX `emails_to_lower_idx` ON `emails` (lower("to_address"));--> statement-breakpoint
CREATE INDEX `emails_updated_idx` ON `emails` (`updated_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_email_lower_idx` ON `subscriptions` (lower("customer_email"));--> statement-breakpoint
CREATE INDEX `subscriptions_created_idx` ON `subscriptions` (`created_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_status_idx` ON `subscriptions` (`status`,`cancel_at_period_end`,`amount_cents`);--> statement-breakpoint
CREATE INDEX `users_email_lower_idx` ON `users` (lower("email"));