CREATE TABLE `email_status_counts` (
	`status` text NOT NULL,
	`slot` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`status`, `slot`)
);
--> statement-breakpoint
CREATE INDEX `emails_status_created_idx` ON `emails` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `emails_kind_created_idx` ON `emails` (`kind`,`created_at`,`id`);--> statement-breakpoint
INSERT INTO `email_status_counts` SELECT `status`, 0, count(*) FROM `emails` GROUP BY `status`;--> statement-breakpoint
CREATE TRIGGER `emails_status_counts_insert` AFTER INSERT ON `emails` BEGIN
	INSERT INTO `email_status_counts` VALUES (NEW.`status`, 0, 1)
	ON CONFLICT (`status`, `slot`) DO UPDATE SET `count` = `count` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `emails_status_counts_update` AFTER UPDATE OF `status` ON `emails` WHEN OLD.`status` IS NOT NEW.`status` BEGIN
	INSERT INTO `email_status_counts` VALUES (OLD.`status`, 0, -1)
	ON CONFLICT (`status`, `slot`) DO UPDATE SET `count` = `count` - 1;
	INSERT INTO `email_status_counts` VALUES (NEW.`status`, 0, 1)
	ON CONFLICT (`status`, `slot`) DO UPDATE SET `count` = `count` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `emails_status_counts_delete` AFTER DELETE ON `emails` BEGIN
	INSERT INTO `email_status_counts` VALUES (OLD.`status`, 0, -1)
	ON CONFLICT (`status`, `slot`) DO UPDATE SET `count` = `count` - 1;
END;
