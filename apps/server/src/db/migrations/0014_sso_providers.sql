CREATE TABLE IF NOT EXISTS "sso_handoffs" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"provider_id" text NOT NULL,
	"subject" text NOT NULL,
	"is_new_user" boolean DEFAULT false NOT NULL,
	"ip" text,
	"user_agent" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"session_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sso_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_enc" text,
	"domains" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"auto_provision" boolean DEFAULT false NOT NULL,
	"default_role" text DEFAULT 'Viewer' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'sso_handoffs_uid_identity_accounts_uid_fk') THEN
    ALTER TABLE "sso_handoffs" ADD CONSTRAINT "sso_handoffs_uid_identity_accounts_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."identity_accounts"("uid") ON DELETE cascade ON UPDATE no action;
  END IF;
END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sso_handoffs_expires_idx" ON "sso_handoffs" USING btree ("expires_at");
