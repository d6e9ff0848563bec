CREATE TABLE `withdrawal_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`requested_at` text NOT NULL,
	`reason` text,
	`email` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawal_requests_order_idx` ON `withdrawal_requests` (`order_id`);--> statement-breakpoint
CREATE INDEX `withdrawal_requests_requested_idx` ON `withdrawal_requests` (`requested_at`);