ALTER TABLE "model_prices" ADD COLUMN "per_image_micros" bigint;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "images" integer DEFAULT 0 NOT NULL;