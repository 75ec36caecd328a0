CREATE TABLE "embedded_usage" (
	"virtual_account_id" text NOT NULL,
	"day" text NOT NULL,
	"chats" integer DEFAULT 0 NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "embedded_usage_virtual_account_id_day_pk" PRIMARY KEY("virtual_account_id","day")
);
--> statement-breakpoint
CREATE TABLE "embedded_visitors" (
	"virtual_account_id" text NOT NULL,
	"visitor_id" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"email" text,
	"signed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "embedded_visitors_virtual_account_id_visitor_id_pk" PRIMARY KEY("virtual_account_id","visitor_id")
);
--> statement-breakpoint
CREATE TABLE "virtual_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"domain_id" text NOT NULL,
	"display_name" text NOT NULL,
	"color" text NOT NULL,
	"agent_id" text,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"welcome" text DEFAULT '' NOT NULL,
	"identity" text DEFAULT 'anonymous' NOT NULL,
	"limits" jsonb NOT NULL,
	"allow_attachments" boolean DEFAULT false NOT NULL,
	"secret_enc" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "embedded_usage" ADD CONSTRAINT "embedded_usage_virtual_account_id_virtual_accounts_id_fk" FOREIGN KEY ("virtual_account_id") REFERENCES "public"."virtual_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "embedded_visitors" ADD CONSTRAINT "embedded_visitors_virtual_account_id_virtual_accounts_id_fk" FOREIGN KEY ("virtual_account_id") REFERENCES "public"."virtual_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_accounts" ADD CONSTRAINT "virtual_accounts_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_accounts" ADD CONSTRAINT "virtual_accounts_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "embedded_visitors_seen_idx" ON "embedded_visitors" USING btree ("virtual_account_id","last_seen_at");--> statement-breakpoint
CREATE INDEX "virtual_accounts_domain_idx" ON "virtual_accounts" USING btree ("domain_id","display_name","id");