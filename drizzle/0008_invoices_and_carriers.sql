CREATE TABLE `invoice_counters` (
	`kind` text NOT NULL,
	`year` integer NOT NULL,
	`last` integer NOT NULL,
	PRIMARY KEY(`kind`, `year`)
);
--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`number` text NOT NULL,
	`year` integer NOT NULL,
	`sequence` integer NOT NULL,
	`order_id` integer NOT NULL,
	`credited_invoice_id` integer,
	`issued_at` text NOT NULL,
	`total_excluding_cents` integer NOT NULL,
	`total_vat_cents` integer NOT NULL,
	`total_including_cents` integer NOT NULL,
	`document` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`credited_invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_number_idx` ON `invoices` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_kind_year_sequence_idx` ON `invoices` (`kind`,`year`,`sequence`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_order_kind_idx` ON `invoices` (`order_id`,`kind`);--> statement-breakpoint
ALTER TABLE `orders` ADD `tracking_carrier` text;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `legal_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `siret` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `vat_number` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `default_carrier` text DEFAULT 'colissimo' NOT NULL;