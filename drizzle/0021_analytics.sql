CREATE TABLE `cart_starts` (
	`day` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `renewal_failures` (
	`stripe_invoice_id` text PRIMARY KEY NOT NULL,
	`subscription_id` integer,
	`failed_at` text NOT NULL,
	`recovered_at` text,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `renewal_failures_failed_idx` ON `renewal_failures` (`failed_at`);--> statement-breakpoint
CREATE INDEX `renewal_failures_recovered_idx` ON `renewal_failures` (`recovered_at`);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `cancel_reason` text;--> statement-breakpoint
CREATE INDEX `subscriptions_started_idx` ON `subscriptions` (`started_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_canceled_idx` ON `subscriptions` (`canceled_at`);--> statement-breakpoint
CREATE INDEX `invoices_issued_idx` ON `invoices` (`issued_at`);--> statement-breakpoint
CREATE INDEX `orders_paid_idx` ON `orders` (`paid_at`);