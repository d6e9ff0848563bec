ALTER TABLE "emails" ADD COLUMN "attachment_refs" jsonb;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "content_purged_after_days" integer;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "email_content_retention_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
CREATE INDEX "emails_content_kept_idx" ON "emails" USING btree ("sent_at") WHERE "emails"."html" is not null;--> statement-breakpoint
ALTER TABLE "emails" ALTER COLUMN "html" SET DATA TYPE bytea USING convert_to("html", 'UTF8');--> statement-breakpoint
ALTER TABLE "emails" ALTER COLUMN "text" SET DATA TYPE bytea USING convert_to("text", 'UTF8');
