ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "attachment_readings" jsonb;
