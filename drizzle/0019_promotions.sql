CREATE TABLE `promotions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`kind` text NOT NULL,
	`value` integer NOT NULL,
	`applies_to` text NOT NULL,
	`cycles` integer,
	`starts_at` text,
	`ends_at` text,
	`max_uses` integer,
	`once_per_email` integer DEFAULT false NOT NULL,
	`first_order_only` integer DEFAULT false NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`uses` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promotions_code_idx` ON `promotions` (`code`);--> statement-breakpoint
ALTER TABLE `carts` ADD `promotion_code` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `promotion_id` integer REFERENCES promotions(id);--> statement-breakpoint
ALTER TABLE `orders` ADD `promotion_code` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `discount_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `orders_promotion_idx` ON `orders` (`promotion_id`);