CREATE TABLE `subscription_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscription_id` integer NOT NULL,
	`action` text NOT NULL,
	`actor` text NOT NULL,
	`label` text NOT NULL,
	`reason` text,
	`at` text NOT NULL,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscription_events_subscription_idx` ON `subscription_events` (`subscription_id`);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `interval_weeks` integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `pause_kind` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `pause_resumes_at` text;