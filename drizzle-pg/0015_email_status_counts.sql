CREATE TABLE "email_status_counts" (
	"status" text NOT NULL,
	"slot" integer NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "email_status_counts_status_slot_pk" PRIMARY KEY("status","slot")
);
--> statement-breakpoint
CREATE INDEX "emails_status_created_idx" ON "emails" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "emails_kind_created_idx" ON "emails" USING btree ("kind","created_at","id");--> statement-breakpoint
INSERT INTO "email_status_counts" SELECT "status", 0, count(*) FROM "emails" GROUP BY "status";--> statement-breakpoint
CREATE FUNCTION "emails_status_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	my_slot integer := pg_backend_pid() % 16;
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		INSERT INTO "email_status_counts" AS c VALUES (OLD."status", my_slot, -1)
		ON CONFLICT ("status", "slot") DO UPDATE SET "count" = c."count" - 1;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO "email_status_counts" AS c VALUES (NEW."status", my_slot, 1)
		ON CONFLICT ("status", "slot") DO UPDATE SET "count" = c."count" + 1;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "emails_status_counts_rows" AFTER INSERT OR DELETE ON "emails" FOR EACH ROW EXECUTE FUNCTION "emails_status_counts"();--> statement-breakpoint
CREATE TRIGGER "emails_status_counts_update" AFTER UPDATE OF "status" ON "emails" FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "emails_status_counts"();
