ALTER TABLE `orders` ADD `customer_first_name` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `customer_last_name` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `token_hash` text;