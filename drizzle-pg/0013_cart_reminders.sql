CREATE TABLE "reminder_unsubscribes" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reminder_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reminder_sent_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "orders_reminder_due_idx" ON "orders" USING btree ("reminder_consent","reminder_sent_at","created_at");--> statement-breakpoint
CREATE INDEX "orders_reminded_idx" ON "orders" USING btree ("reminder_sent_at","paid_at","total_cents");--> statement-breakpoint
CREATE INDEX "orders_promotion_paid_idx" ON "orders" USING btree ("promotion_id","paid_at","total_cents","discount_cents");--> statement-breakpoint
CREATE INDEX "subscription_events_action_idx" ON "subscription_events" USING btree ("action","at","subscription_id");