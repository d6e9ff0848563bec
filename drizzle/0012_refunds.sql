CREATE TABLE `refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`reason` text NOT NULL,
	`stripe_refund_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`actor_user_id` integer,
	`actor_name` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`failure_message` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_stripe_refund_idx` ON `refunds` (`stripe_refund_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_idempotency_key_idx` ON `refunds` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `refunds_order_idx` ON `refunds` (`order_id`);--> statement-breakpoint
DROP INDEX `invoices_order_kind_idx`;--> statement-breakpoint
ALTER TABLE `invoices` ADD `refund_id` integer REFERENCES refunds(id);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_order_invoice_idx` ON `invoices` (`order_id`) WHERE kind = 'invoice';--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_refund_idx` ON `invoices` (`refund_id`);--> statement-breakpoint
CREATE INDEX `invoices_order_idx` ON `invoices` (`order_id`);