ALTER TABLE "knowledge_documents" ADD COLUMN IF NOT EXISTS "error_reason" jsonb;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD COLUMN IF NOT EXISTS "error_reason" jsonb;