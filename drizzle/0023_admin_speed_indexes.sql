DROP INDEX `subscriptions_started_idx`;--> statement-breakpoint
DROP INDEX `subscriptions_canceled_idx`;--> statement-breakpoint
CREATE INDEX `subscriptions_user_idx` ON `subscriptions` (`user_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_first_order_idx` ON `subscriptions` (`first_order_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_started_idx` ON `subscriptions` (`started_at`,`canceled_at`,`amount_cents`);--> statement-breakpoint
CREATE INDEX `subscriptions_canceled_idx` ON `subscriptions` (`canceled_at`,`started_at`,`amount_cents`);--> statement-breakpoint
CREATE INDEX `emails_contact_request_idx` ON `emails` (`contact_request_id`);