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
CREATE TABLE `packs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`masks` integer NOT NULL,
	`price_cents` integer NOT NULL,
	`reference_price_cents` integer,
	`popular` integer DEFAULT false NOT NULL,
	`trial` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `packs_product_idx` ON `packs` (`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `price_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pack_id` integer NOT NULL,
	`price_cents` integer NOT NULL,
	`started_at` text NOT NULL,
	`note` text,
	FOREIGN KEY (`pack_id`) REFERENCES `packs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_history_pack_idx` ON `price_history` (`pack_id`,`started_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_cart_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cart_id` text NOT NULL,
	`product_id` integer NOT NULL,
	`pack_id` integer,
	`quantity` integer DEFAULT 1 NOT NULL,
	`variant_name` text,
	`variant_price_cents` integer,
	`variant_original_price_cents` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_cart_lines`("id", "cart_id", "product_id", "pack_id", "quantity", "variant_name", "variant_price_cents", "variant_original_price_cents", "created_at", "updated_at") SELECT "id", "cart_id", "product_id", "pack_id", "quantity", "variant_name", "variant_price_cents", "variant_original_price_cents", "created_at", "updated_at" FROM `cart_lines`;--> statement-breakpoint
DROP TABLE `cart_lines`;--> statement-breakpoint
ALTER TABLE `__new_cart_lines` RENAME TO `cart_lines`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `cart_lines_cart_idx` ON `cart_lines` (`cart_id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `shipping_address2` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `shipping_phone` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `tracking_carrier` text;--> statement-breakpoint
ALTER TABLE `products` ADD `sale_without_pack` text DEFAULT 'unit' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `legal_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `siret` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `vat_number` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `default_carrier` text DEFAULT 'colissimo' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `trial_offer_ends_at` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `shipping_address2` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `shipping_phone` text;