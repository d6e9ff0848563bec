CREATE TABLE `stripe_erasures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject_id` integer NOT NULL,
	`actor_id` integer,
	`actor_username` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`customer_ids` text NOT NULL,
	`payment_intent_ids` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`last_attempt_at` text,
	`next_attempt_at` text NOT NULL,
	`done_at` text,
	`last_error` text,
	`result` text
);
--> statement-breakpoint
CREATE INDEX `stripe_erasures_due_idx` ON `stripe_erasures` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `stripe_erasures_subject_idx` ON `stripe_erasures` (`subject_id`);--> statement-breakpoint
ALTER TABLE `audit_log` ADD `details` text;