CREATE TABLE "mcp_servers" (
	"id" text PRIMARY KEY NOT NULL,
	"domain_id" text NOT NULL,
	"display_name" text NOT NULL,
	"url" text NOT NULL,
	"visible_to" jsonb DEFAULT '{"roles":[],"departments":[]}'::jsonb NOT NULL,
	"auth_kind" text DEFAULT 'none' NOT NULL,
	"auth_header_name" text,
	"auth_value_enc" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tools_at" timestamp with time zone,
	"last_error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_servers_domain_idx" ON "mcp_servers" USING btree ("domain_id","created_at");