CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`customer_email` text,
	`customer_name` text,
	`product_id` integer,
	`pack_id` integer,
	`quantity` integer DEFAULT 1 NOT NULL,
	`product_name` text,
	`variant_name` text,
	`amount_cents` integer NOT NULL,
	`stripe_subscription_id` text NOT NULL,
	`stripe_customer_id` text,
	`status` text DEFAULT 'incomplete' NOT NULL,
	`started_at` text,
	`current_period_end` text,
	`renewal_count` integer DEFAULT 0 NOT NULL,
	`canceled_at` text,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`shipping_name` text,
	`shipping_address` text,
	`shipping_postal_code` text,
	`shipping_city` text,
	`shipping_country` text,
	`first_order_id` integer,
	`unpaid_invoice_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`first_order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_stripe_subscription_idx` ON `subscriptions` (`stripe_subscription_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_email_idx` ON `subscriptions` (`customer_email`);--> statement-breakpoint
ALTER TABLE `orders` ADD `subscription_id` integer REFERENCES subscriptions(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `orders` ADD `stripe_invoice_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `renewal_number` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_stripe_invoice_idx` ON `orders` (`stripe_invoice_id`);--> statement-breakpoint
CREATE INDEX `orders_subscription_idx` ON `orders` (`subscription_id`);--> statement-breakpoint
-- Today's subscription orders become subscriptions: canceled when their cancellation was recorded,
-- active once paid (a refunded first charge does not end the subscription), incomplete otherwise.
INSERT OR IGNORE INTO `subscriptions` (`user_id`, `customer_email`, `customer_name`, `product_id`, `pack_id`, `quantity`, `product_name`, `variant_name`, `amount_cents`, `stripe_subscription_id`, `stripe_customer_id`, `status`, `started_at`, `current_period_end`, `canceled_at`, `shipping_name`, `shipping_address`, `shipping_postal_code`, `shipping_city`, `shipping_country`, `first_order_id`, `created_at`, `updated_at`)
SELECT o.`user_id`, o.`customer_email`,
  coalesce(nullif(trim(o.`customer_name`), ''), nullif(trim(coalesce(o.`customer_first_name`, '') || ' ' || coalesce(o.`customer_last_name`, '')), '')),
  i.`product_id`, i.`pack_id`, coalesce(i.`quantity`, 1), i.`product_name`, i.`variant_name`, o.`total_cents`,
  o.`stripe_subscription_id`, o.`stripe_customer_id`,
  CASE WHEN o.`subscription_canceled_at` IS NOT NULL THEN 'canceled' WHEN o.`payment_status` IN ('paid', 'refunded') THEN 'active' ELSE 'incomplete' END,
  o.`paid_at`,
  CASE WHEN o.`paid_at` IS NOT NULL AND o.`subscription_canceled_at` IS NULL THEN strftime('%Y-%m-%dT%H:%M:%fZ', o.`paid_at`, '+30 days') END,
  o.`subscription_canceled_at`,
  coalesce(nullif(trim(o.`customer_name`), ''), nullif(trim(coalesce(o.`customer_first_name`, '') || ' ' || coalesce(o.`customer_last_name`, '')), '')),
  o.`shipping_address`, o.`shipping_postal_code`, o.`shipping_city`, o.`shipping_country`,
  o.`id`, o.`created_at`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM `orders` o
LEFT JOIN `order_items` i ON i.`id` = (SELECT min(`id`) FROM `order_items` WHERE `order_id` = o.`id`)
WHERE o.`is_subscription` = 1 AND o.`stripe_subscription_id` IS NOT NULL
ORDER BY o.`created_at`, o.`id`;--> statement-breakpoint
UPDATE `orders` SET `subscription_id` = (SELECT s.`id` FROM `subscriptions` s WHERE s.`first_order_id` = `orders`.`id`)
WHERE `is_subscription` = 1 AND `stripe_subscription_id` IS NOT NULL;