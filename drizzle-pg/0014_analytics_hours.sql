CREATE TABLE "pack_revenue_hours" (
	"starts_at" timestamp (3) with time zone NOT NULL,
	"label" text NOT NULL,
	"quantity" integer NOT NULL,
	"cents" integer NOT NULL,
	CONSTRAINT "pack_revenue_hours_starts_at_label_pk" PRIMARY KEY("starts_at","label")
);
--> statement-breakpoint
CREATE TABLE "revenue_hours" (
	"starts_at" timestamp (3) with time zone PRIMARY KEY NOT NULL,
	"invoices" integer NOT NULL,
	"invoiced_including_cents" integer NOT NULL,
	"invoiced_excluding_cents" integer NOT NULL,
	"credited_including_cents" integer NOT NULL,
	"credited_excluding_cents" integer NOT NULL,
	"subscription_net_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "orders_recovered_idx" ON "orders" USING btree ("paid_at","reminder_sent_at","total_cents") WHERE reminder_sent_at is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_paused_idx" ON "subscriptions" USING btree ("pause_kind","canceled_at","pause_resumes_at");--> statement-breakpoint
INSERT INTO "revenue_hours" SELECT
	date_trunc('hour', i."issued_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
	coalesce(sum(CASE WHEN i."kind" = 'invoice' THEN 1 ELSE 0 END), 0),
	coalesce(sum(CASE WHEN i."kind" = 'invoice' THEN i."total_including_cents" ELSE 0 END), 0),
	coalesce(sum(CASE WHEN i."kind" = 'invoice' THEN i."total_excluding_cents" ELSE 0 END), 0),
	coalesce(sum(CASE WHEN i."kind" = 'credit_note' THEN i."total_including_cents" ELSE 0 END), 0),
	coalesce(sum(CASE WHEN i."kind" = 'credit_note' THEN i."total_excluding_cents" ELSE 0 END), 0),
	coalesce(sum(CASE WHEN o."subscription_id" IS NOT NULL OR o."is_subscription" THEN (CASE WHEN i."kind" = 'invoice' THEN i."total_including_cents" ELSE -i."total_including_cents" END) ELSE 0 END), 0)
FROM "invoices" i LEFT JOIN "orders" o ON o."id" = i."order_id"
GROUP BY 1;--> statement-breakpoint
CREATE FUNCTION "invoices_revenue_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	from_subscription boolean;
BEGIN
	SELECT (o."subscription_id" IS NOT NULL OR o."is_subscription") INTO from_subscription FROM "orders" o WHERE o."id" = NEW."order_id";
	INSERT INTO "revenue_hours" AS r VALUES (
		date_trunc('hour', NEW."issued_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
		CASE WHEN NEW."kind" = 'invoice' THEN 1 ELSE 0 END,
		CASE WHEN NEW."kind" = 'invoice' THEN NEW."total_including_cents" ELSE 0 END,
		CASE WHEN NEW."kind" = 'invoice' THEN NEW."total_excluding_cents" ELSE 0 END,
		CASE WHEN NEW."kind" = 'credit_note' THEN NEW."total_including_cents" ELSE 0 END,
		CASE WHEN NEW."kind" = 'credit_note' THEN NEW."total_excluding_cents" ELSE 0 END,
		CASE WHEN coalesce(from_subscription, false) THEN (CASE WHEN NEW."kind" = 'invoice' THEN NEW."total_including_cents" ELSE -NEW."total_including_cents" END) ELSE 0 END
	)
	ON CONFLICT ("starts_at") DO UPDATE SET
		"invoices" = r."invoices" + excluded."invoices",
		"invoiced_including_cents" = r."invoiced_including_cents" + excluded."invoiced_including_cents",
		"invoiced_excluding_cents" = r."invoiced_excluding_cents" + excluded."invoiced_excluding_cents",
		"credited_including_cents" = r."credited_including_cents" + excluded."credited_including_cents",
		"credited_excluding_cents" = r."credited_excluding_cents" + excluded."credited_excluding_cents",
		"subscription_net_cents" = r."subscription_net_cents" + excluded."subscription_net_cents";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "invoices_revenue_hours" AFTER INSERT ON "invoices" FOR EACH ROW EXECUTE FUNCTION "invoices_revenue_hours"();--> statement-breakpoint
CREATE FUNCTION "orders_revenue_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "revenue_hours" r SET "subscription_net_cents" = r."subscription_net_cents" + d."net"
		* (CASE WHEN NEW."subscription_id" IS NOT NULL OR NEW."is_subscription" THEN 1 ELSE -1 END)
	FROM (
		SELECT date_trunc('hour', i."issued_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS "starts_at",
			sum(CASE WHEN i."kind" = 'invoice' THEN i."total_including_cents" ELSE -i."total_including_cents" END) AS "net"
		FROM "invoices" i WHERE i."order_id" = NEW."id" GROUP BY 1
	) d
	WHERE r."starts_at" = d."starts_at";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_revenue_hours" AFTER UPDATE OF "subscription_id", "is_subscription" ON "orders" FOR EACH ROW
	WHEN ((OLD."subscription_id" IS NOT NULL OR OLD."is_subscription") IS DISTINCT FROM (NEW."subscription_id" IS NOT NULL OR NEW."is_subscription"))
	EXECUTE FUNCTION "orders_revenue_hours"();--> statement-breakpoint
INSERT INTO "pack_revenue_hours" SELECT
	date_trunc('hour', i."issued_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
	coalesce(l."variant_name", l."product_name", 'Sans nom'),
	sum(l."quantity"),
	sum(l."quantity" * l."unit_price_cents")
FROM "invoices" i JOIN "order_items" l ON l."order_id" = i."order_id"
WHERE i."kind" = 'invoice'
GROUP BY 1, 2;--> statement-breakpoint
CREATE FUNCTION "pack_revenue_hours_add"(at timestamptz, pack text, quantity integer, cents integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "pack_revenue_hours" AS p VALUES (date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', pack, quantity, cents)
	ON CONFLICT ("starts_at", "label") DO UPDATE SET
		"quantity" = p."quantity" + excluded."quantity",
		"cents" = p."cents" + excluded."cents";
$$;--> statement-breakpoint
CREATE FUNCTION "invoices_pack_revenue_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "pack_revenue_hours_add"(NEW."issued_at", l."label", l."quantity", l."cents")
	FROM (
		SELECT coalesce("variant_name", "product_name", 'Sans nom') AS "label",
			sum("quantity")::integer AS "quantity", sum("quantity" * "unit_price_cents")::integer AS "cents"
		FROM "order_items" WHERE "order_id" = NEW."order_id" GROUP BY 1
	) l;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "invoices_pack_revenue_hours" AFTER INSERT ON "invoices" FOR EACH ROW
	WHEN (NEW."kind" = 'invoice')
	EXECUTE FUNCTION "invoices_pack_revenue_hours"();--> statement-breakpoint
CREATE FUNCTION "order_items_pack_revenue_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	line "order_items";
	sign integer;
BEGIN
	IF TG_OP = 'INSERT' THEN line := NEW; sign := 1; ELSE line := OLD; sign := -1; END IF;
	PERFORM "pack_revenue_hours_add"(i."issued_at", coalesce(line."variant_name", line."product_name", 'Sans nom'),
		sign * line."quantity", sign * line."quantity" * line."unit_price_cents")
	FROM "invoices" i WHERE i."order_id" = line."order_id" AND i."kind" = 'invoice';
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "order_items_pack_revenue_hours" AFTER INSERT OR DELETE ON "order_items" FOR EACH ROW
	EXECUTE FUNCTION "order_items_pack_revenue_hours"();
