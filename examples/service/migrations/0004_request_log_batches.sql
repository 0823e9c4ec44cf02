CREATE TABLE "request_log_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"requests" integer NOT NULL,
	"entries" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_log_batches" ADD CONSTRAINT "request_log_batches_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_log_batches" ADD CONSTRAINT "request_log_batches_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_log_batches_account_last_at" ON "request_log_batches" USING btree ("account_id","last_at");--> statement-breakpoint
CREATE INDEX "request_log_batches_last_at" ON "request_log_batches" USING btree ("last_at");--> statement-breakpoint
-- The request log's rows become batches (a key's requests of a minute), then the per-request table goes.
INSERT INTO "request_log_batches" ("account_id", "key_id", "first_at", "last_at", "requests", "entries")
  SELECT "account_id", "key_id", min("at"), max("at"), count(*)::int,
    json_agg(json_build_array(extract(epoch FROM "at") * 1000, "kind", "format", "model", "upstream", "stream", "status",
      "latency_ms", "first_byte_ms", "input_tokens", "output_tokens") ORDER BY "at", "id")::text
  FROM "request_log" GROUP BY "account_id", "key_id", date_trunc('minute', "at");--> statement-breakpoint
DROP TABLE "request_log" CASCADE;