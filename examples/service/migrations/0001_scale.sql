CREATE TABLE "key_windows" (
	"key_id" uuid NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	"granted_requests" integer DEFAULT 0 NOT NULL,
	"granted_tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "key_windows_pkey" PRIMARY KEY("key_id","window_start")
);
--> statement-breakpoint
CREATE TABLE "stored_items" (
	"scope" text NOT NULL,
	"id" text NOT NULL,
	"item" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stored_items_pkey" PRIMARY KEY("scope","id")
);
--> statement-breakpoint
CREATE TABLE "stored_reasoning" (
	"scope" text NOT NULL,
	"id" text NOT NULL,
	"details" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stored_reasoning_pkey" PRIMARY KEY("scope","id")
);
--> statement-breakpoint
CREATE TABLE "stored_responses" (
	"scope" text NOT NULL,
	"id" text NOT NULL,
	"body" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stored_responses_pkey" PRIMARY KEY("scope","id")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rpm_limit" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "tpm_limit" integer;--> statement-breakpoint
ALTER TABLE "key_windows" ADD CONSTRAINT "key_windows_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_windows_window_start" ON "key_windows" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "stored_items_expires_at" ON "stored_items" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stored_reasoning_expires_at" ON "stored_reasoning" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stored_responses_expires_at" ON "stored_responses" USING btree ("expires_at");