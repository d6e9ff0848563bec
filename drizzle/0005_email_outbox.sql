CREATE TABLE `emails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`order_id` integer,
	`contact_request_id` integer,
	`to_address` text NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` text NOT NULL,
	`sending_since` text,
	`sent_at` text,
	`transport` text,
	`message_id` text,
	`subject` text,
	`html` text,
	`text` text,
	`attachments` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`contact_request_id`) REFERENCES `contact_requests`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `emails_dedupe_key_idx` ON `emails` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `emails_due_idx` ON `emails` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `emails_order_idx` ON `emails` (`order_id`);--> statement-breakpoint
CREATE INDEX `emails_created_idx` ON `emails` (`created_at`);--> statement-breakpoint
ALTER TABLE `orders` ADD `terms_version` text;