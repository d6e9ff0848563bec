ALTER TABLE `orders` ADD `shipping_address2` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `shipping_phone` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `shipping_address2` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `shipping_phone` text;