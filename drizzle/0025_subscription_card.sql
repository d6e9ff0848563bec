ALTER TABLE `subscriptions` ADD `card_brand` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `card_last4` text;