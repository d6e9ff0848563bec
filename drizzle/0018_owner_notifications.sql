CREATE TABLE `owner_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`order_id` integer,
	`contact_request_id` integer,
	`payload` text DEFAULT '{}' NOT NULL,
	`summary_email_id` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`contact_request_id`) REFERENCES `contact_requests`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`summary_email_id`) REFERENCES `emails`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `owner_notices_dedupe_key_idx` ON `owner_notices` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `owner_notices_summary_idx` ON `owner_notices` (`summary_email_id`);--> statement-breakpoint
ALTER TABLE `site_settings` ADD `notify_withdrawal` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `notify_renewal_problem` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `notify_stripe_refund` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `notify_contact` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `notify_email_failed` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `notify_daily_summary` integer DEFAULT false NOT NULL;