ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "error_reason" jsonb;
