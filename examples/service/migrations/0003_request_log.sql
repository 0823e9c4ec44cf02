CREATE TABLE "request_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"format" text NOT NULL,
	"model" text NOT NULL,
	"upstream" text,
	"stream" boolean DEFAULT false NOT NULL,
	"status" integer NOT NULL,
	"latency_ms" integer NOT NULL,
	"first_byte_ms" integer,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_log_account_at" ON "request_log" USING btree ("account_id","at");--> statement-breakpoint
CREATE INDEX "request_log_at" ON "request_log" USING btree ("at");