ALTER TABLE `orders` ADD `customer_first_name` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `customer_last_name` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `token_hash` text;--> statement-breakpoint
UPDATE `orders` SET `customer_first_name` = (SELECT `first_name` FROM `users` WHERE `users`.`id` = `orders`.`user_id`), `customer_last_name` = (SELECT `last_name` FROM `users` WHERE `users`.`id` = `orders`.`user_id`) WHERE `user_id` IS NOT NULL;
