ALTER TABLE "emails" ALTER COLUMN "html" SET DATA TYPE bytea USING convert_to("html", 'UTF8');--> statement-breakpoint
ALTER TABLE "emails" ALTER COLUMN "text" SET DATA TYPE bytea USING convert_to("text", 'UTF8');
