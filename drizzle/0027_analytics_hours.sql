CREATE TABLE `pack_revenue_hours` (
	`starts_at` text NOT NULL,
	`label` text NOT NULL,
	`quantity` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`starts_at`, `label`)
);
--> statement-breakpoint
CREATE TABLE `revenue_hours` (
	`starts_at` text PRIMARY KEY NOT NULL,
	`invoices` integer NOT NULL,
	`invoiced_including_cents` integer NOT NULL,
	`invoiced_excluding_cents` integer NOT NULL,
	`credited_including_cents` integer NOT NULL,
	`credited_excluding_cents` integer NOT NULL,
	`subscription_net_cents` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `orders_recovered_idx` ON `orders` (`paid_at`,`reminder_sent_at`,`total_cents`) WHERE reminder_sent_at is not null;--> statement-breakpoint
CREATE INDEX `subscriptions_paused_idx` ON `subscriptions` (`pause_kind`,`canceled_at`,`pause_resumes_at`);--> statement-breakpoint
INSERT INTO `revenue_hours` SELECT
	substr(i.`issued_at`, 1, 13) || ':00:00.000Z',
	coalesce(sum(CASE WHEN i.`kind` = 'invoice' THEN 1 ELSE 0 END), 0),
	coalesce(sum(CASE WHEN i.`kind` = 'invoice' THEN i.`total_including_cents` ELSE 0 END), 0),
	coalesce(sum(CASE WHEN i.`kind` = 'invoice' THEN i.`total_excluding_cents` ELSE 0 END), 0),
	coalesce(sum(CASE WHEN i.`kind` = 'credit_note' THEN i.`total_including_cents` ELSE 0 END), 0),
	coalesce(sum(CASE WHEN i.`kind` = 'credit_note' THEN i.`total_excluding_cents` ELSE 0 END), 0),
	coalesce(sum(CASE WHEN o.`subscription_id` IS NOT NULL OR o.`is_subscription` THEN (CASE WHEN i.`kind` = 'invoice' THEN i.`total_including_cents` ELSE -i.`total_including_cents` END) ELSE 0 END), 0)
FROM `invoices` i LEFT JOIN `orders` o ON o.`id` = i.`order_id`
GROUP BY 1;--> statement-breakpoint
CREATE TRIGGER `invoices_revenue_hours` AFTER INSERT ON `invoices` BEGIN
	INSERT INTO `revenue_hours` SELECT
		substr(NEW.`issued_at`, 1, 13) || ':00:00.000Z',
		CASE WHEN NEW.`kind` = 'invoice' THEN 1 ELSE 0 END,
		CASE WHEN NEW.`kind` = 'invoice' THEN NEW.`total_including_cents` ELSE 0 END,
		CASE WHEN NEW.`kind` = 'invoice' THEN NEW.`total_excluding_cents` ELSE 0 END,
		CASE WHEN NEW.`kind` = 'credit_note' THEN NEW.`total_including_cents` ELSE 0 END,
		CASE WHEN NEW.`kind` = 'credit_note' THEN NEW.`total_excluding_cents` ELSE 0 END,
		CASE WHEN o.`subscription_id` IS NOT NULL OR o.`is_subscription` THEN (CASE WHEN NEW.`kind` = 'invoice' THEN NEW.`total_including_cents` ELSE -NEW.`total_including_cents` END) ELSE 0 END
	FROM (SELECT 1) LEFT JOIN `orders` o ON o.`id` = NEW.`order_id`
	WHERE true
	ON CONFLICT (`starts_at`) DO UPDATE SET
		`invoices` = `invoices` + excluded.`invoices`,
		`invoiced_including_cents` = `invoiced_including_cents` + excluded.`invoiced_including_cents`,
		`invoiced_excluding_cents` = `invoiced_excluding_cents` + excluded.`invoiced_excluding_cents`,
		`credited_including_cents` = `credited_including_cents` + excluded.`credited_including_cents`,
		`credited_excluding_cents` = `credited_excluding_cents` + excluded.`credited_excluding_cents`,
		`subscription_net_cents` = `subscription_net_cents` + excluded.`subscription_net_cents`;
END;--> statement-breakpoint
CREATE TRIGGER `orders_revenue_hours` AFTER UPDATE OF `subscription_id`, `is_subscription` ON `orders`
WHEN (OLD.`subscription_id` IS NOT NULL OR OLD.`is_subscription`) <> (NEW.`subscription_id` IS NOT NULL OR NEW.`is_subscription`)
BEGIN
	UPDATE `revenue_hours` SET `subscription_net_cents` = `subscription_net_cents` + (
		SELECT coalesce(sum(CASE WHEN i.`kind` = 'invoice' THEN i.`total_including_cents` ELSE -i.`total_including_cents` END), 0)
			* (CASE WHEN NEW.`subscription_id` IS NOT NULL OR NEW.`is_subscription` THEN 1 ELSE -1 END)
		FROM `invoices` i
		WHERE i.`order_id` = NEW.`id` AND substr(i.`issued_at`, 1, 13) || ':00:00.000Z' = `revenue_hours`.`starts_at`
	)
	WHERE `starts_at` IN (SELECT substr(`issued_at`, 1, 13) || ':00:00.000Z' FROM `invoices` WHERE `order_id` = NEW.`id`);
END;
--> statement-breakpoint
INSERT INTO `pack_revenue_hours` SELECT
	substr(i.`issued_at`, 1, 13) || ':00:00.000Z',
	coalesce(l.`variant_name`, l.`product_name`, 'Sans nom'),
	sum(l.`quantity`),
	sum(l.`quantity` * l.`unit_price_cents`)
FROM `invoices` i JOIN `order_items` l ON l.`order_id` = i.`order_id`
WHERE i.`kind` = 'invoice'
GROUP BY 1, 2;--> statement-breakpoint
CREATE TRIGGER `invoices_pack_revenue_hours` AFTER INSERT ON `invoices` WHEN NEW.`kind` = 'invoice' BEGIN
	INSERT INTO `pack_revenue_hours` SELECT
		substr(NEW.`issued_at`, 1, 13) || ':00:00.000Z',
		coalesce(l.`variant_name`, l.`product_name`, 'Sans nom'),
		sum(l.`quantity`),
		sum(l.`quantity` * l.`unit_price_cents`)
	FROM `order_items` l
	WHERE l.`order_id` = NEW.`order_id`
	GROUP BY 2
	ON CONFLICT (`starts_at`, `label`) DO UPDATE SET
		`quantity` = `quantity` + excluded.`quantity`,
		`cents` = `cents` + excluded.`cents`;
END;--> statement-breakpoint
CREATE TRIGGER `order_items_pack_revenue_hours_insert` AFTER INSERT ON `order_items` BEGIN
	INSERT INTO `pack_revenue_hours` SELECT
		substr(i.`issued_at`, 1, 13) || ':00:00.000Z',
		coalesce(NEW.`variant_name`, NEW.`product_name`, 'Sans nom'),
		NEW.`quantity`,
		NEW.`quantity` * NEW.`unit_price_cents`
	FROM `invoices` i
	WHERE i.`order_id` = NEW.`order_id` AND i.`kind` = 'invoice'
	ON CONFLICT (`starts_at`, `label`) DO UPDATE SET
		`quantity` = `quantity` + excluded.`quantity`,
		`cents` = `cents` + excluded.`cents`;
END;--> statement-breakpoint
CREATE TRIGGER `order_items_pack_revenue_hours_delete` AFTER DELETE ON `order_items` BEGIN
	UPDATE `pack_revenue_hours` SET
		`quantity` = `quantity` - OLD.`quantity`,
		`cents` = `cents` - OLD.`quantity` * OLD.`unit_price_cents`
	WHERE `label` = coalesce(OLD.`variant_name`, OLD.`product_name`, 'Sans nom')
		AND `starts_at` IN (SELECT substr(`issued_at`, 1, 13) || ':00:00.000Z' FROM `invoices` WHERE `order_id` = OLD.`order_id` AND `kind` = 'invoice');
END;
