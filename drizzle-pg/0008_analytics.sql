CREATE TABLE "cart_starts" (
	"day" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "renewal_failures" (
	"stripe_invoice_id" text PRIMARY KEY NOT NULL,
	"subscription_id" integer,
	"failed_at" timestamp (3) with time zone NOT NULL,
	"recovered_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "renewal_failures" ADD CONSTRAINT "renewal_failures_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "renewal_failures_failed_idx" ON "renewal_failures" USING btree ("failed_at");--> statement-breakpoint
CREATE INDEX "renewal_failures_recovered_idx" ON "renewal_failures" USING btree ("recovered_at");--> statement-breakpoint
CREATE INDEX "invoices_issued_idx" ON "invoices" USING btree ("issued_at");--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "subscriptions_started_idx" ON "subscriptions" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "subscriptions_canceled_idx" ON "subscriptions" USING btree ("canceled_at");