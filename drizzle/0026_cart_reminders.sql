CREATE TABLE `reminder_unsubscribes` (
	`email_hash` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `emails` ADD `headers` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `reminder_consent` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `reminder_sent_at` text;--> statement-breakpoint
CREATE INDEX `orders_reminder_due_idx` ON `orders` (`reminder_consent`,`reminder_sent_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_reminded_idx` ON `orders` (`reminder_sent_at`,`paid_at`,`total_cents`);--> statement-breakpoint
CREATE INDEX `orders_promotion_paid_idx` ON `orders` (`promotion_id`,`paid_at`,`total_cents`,`discount_cents`);--> statement-breakpoint
CREATE INDEX `subscription_events_action_idx` ON `subscription_events` (`action`,`at`,`subscription_id`);