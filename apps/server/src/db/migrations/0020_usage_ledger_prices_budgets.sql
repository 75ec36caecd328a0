CREATE TABLE "budget_periods" (
	"budget_id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"used_cost_micros" bigint DEFAULT 0 NOT NULL,
	"used_tokens" bigint DEFAULT 0 NOT NULL,
	"reserved_cost_micros" bigint DEFAULT 0 NOT NULL,
	"reserved_tokens" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_periods_budget_id_period_start_pk" PRIMARY KEY("budget_id","period_start")
);
--> statement-breakpoint
CREATE TABLE "budget_reservations" (
	"id" text PRIMARY KEY NOT NULL,
	"holds" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" text PRIMARY KEY NOT NULL,
	"domain_id" text NOT NULL,
	"scope_kind" text NOT NULL,
	"scope_id" text DEFAULT '' NOT NULL,
	"period" text NOT NULL,
	"limit_cost_micros" bigint,
	"limit_tokens" bigint,
	"warn_at_percent" integer DEFAULT 80 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_prices" (
	"id" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"input_per_million_micros" bigint NOT NULL,
	"output_per_million_micros" bigint NOT NULL,
	"cached_input_per_million_micros" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"effective_from" timestamp with time zone DEFAULT now() NOT NULL,
	"set_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"day" date NOT NULL,
	"domain_id" text NOT NULL,
	"department_id" text DEFAULT '' NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"santito_id" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"model" text NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cost_micros" bigint DEFAULT 0 NOT NULL,
	"unpriced_calls" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_domain_id_day_department_id_user_id_santito_id_source_model_pk" PRIMARY KEY("domain_id","day","department_id","user_id","santito_id","source","model")
);
--> statement-breakpoint
CREATE TABLE "usage_events" (
	"id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"domain_id" text NOT NULL,
	"department_id" text,
	"user_id" text,
	"api_key_id" text,
	"virtual_account_id" text,
	"santito_id" text,
	"source" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"cached_input_tokens" integer DEFAULT 0 NOT NULL,
	"reasoning_tokens" integer DEFAULT 0 NOT NULL,
	"cost_micros" bigint,
	"price_id" text
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "time_zone" text DEFAULT 'America/Sao_Paulo' NOT NULL;--> statement-breakpoint
ALTER TABLE "budget_periods" ADD CONSTRAINT "budget_periods_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budget_reservations_expires_idx" ON "budget_reservations" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_scope_period_idx" ON "budgets" USING btree ("domain_id","scope_kind","scope_id","period");--> statement-breakpoint
CREATE INDEX "model_prices_model_from_idx" ON "model_prices" USING btree ("model","effective_from");--> statement-breakpoint
CREATE INDEX "usage_daily_user_day_idx" ON "usage_daily" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "usage_events_domain_at_idx" ON "usage_events" USING btree ("domain_id","at");--> statement-breakpoint
CREATE INDEX "usage_events_user_at_idx" ON "usage_events" USING btree ("user_id","at");--> statement-breakpoint
-- What was spent before the ledger existed comes into it once: chat answers' usage (an embedded
-- visitor's as `embedded`) and OpenAI-compatible API calls, with their day roll-ups. Unpriced.
INSERT INTO "usage_events" ("id", "at", "domain_id", "department_id", "user_id", "santito_id", "source", "model", "input_tokens", "output_tokens")
SELECT 'msg_' || m."id", m."created_at", c."domain_id", u."department_id", c."user_id", c."agent_id",
  CASE WHEN u."type" = 'visitor' THEN 'embedded' ELSE 'chat' END,
  coalesce(m."model", 'unknown:unknown'),
  coalesce((m."usage"->>'inputTokens')::integer, 0), coalesce((m."usage"->>'outputTokens')::integer, 0)
FROM "messages" m JOIN "chats" c ON c."id" = m."chat_id" LEFT JOIN "users" u ON u."id" = c."user_id"
WHERE m."role" = 'assistant' AND m."usage" IS NOT NULL;--> statement-breakpoint
INSERT INTO "usage_events" ("id", "at", "domain_id", "department_id", "user_id", "api_key_id", "santito_id", "source", "model", "input_tokens", "output_tokens")
SELECT 'api_' || a."id", a."created_at", a."domain_id", u."department_id", a."user_id", a."key_id", a."santito_id", 'api', a."model", a."input_tokens", a."output_tokens"
FROM "api_usage" a LEFT JOIN "users" u ON u."id" = a."user_id";--> statement-breakpoint
INSERT INTO "usage_daily" ("day", "domain_id", "department_id", "user_id", "santito_id", "source", "model", "calls", "input_tokens", "output_tokens", "cost_micros", "unpriced_calls")
SELECT (e."at" AT TIME ZONE coalesce(d."time_zone", 'America/Sao_Paulo'))::date, e."domain_id", coalesce(e."department_id", ''), coalesce(e."user_id", ''), coalesce(e."santito_id", ''), e."source", e."model",
  count(*), sum(e."input_tokens"), sum(e."output_tokens"), 0, count(*)
FROM "usage_events" e LEFT JOIN "domains" d ON d."id" = e."domain_id"
GROUP BY 1, 2, 3, 4, 5, 6, 7;
