ALTER TABLE `emails` ADD `attachment_refs` text;--> statement-breakpoint
ALTER TABLE `emails` ADD `content_purged_after_days` integer;--> statement-breakpoint
CREATE INDEX `emails_content_kept_idx` ON `emails` (`sent_at`) WHERE "emails"."html" is not null;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `email_content_retention_days` integer DEFAULT 90 NOT NULL;