CREATE TABLE `admin_recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`used_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_recovery_codes_user_code_idx` ON `admin_recovery_codes` (`user_id`,`code_hash`);--> statement-breakpoint
CREATE TABLE `admin_totp` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`encrypted_secret` text NOT NULL,
	`created_at` text NOT NULL,
	`enabled_at` text,
	`last_used_step` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `admin_trusted_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_trusted_devices_token_hash_unique` ON `admin_trusted_devices` (`token_hash`);--> statement-breakpoint
CREATE INDEX `admin_trusted_devices_user_idx` ON `admin_trusted_devices` (`user_id`);