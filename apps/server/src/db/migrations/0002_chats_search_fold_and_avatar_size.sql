DROP INDEX IF EXISTS "chats_user_updated_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "chats_title_search_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "messages_content_search_idx";--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN IF NOT EXISTS "avatar_size" integer;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN IF NOT EXISTS "avatar_content_type" text;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chats_user_list_idx" ON "chats" USING btree ("user_id","pinned" DESC NULLS LAST,"updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chats_title_fold_search_idx" ON "chats" USING gin (to_tsvector('simple', translate("title", 'ÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝáàâãäåéèêëíìîïóòôõöúùûüçñýÿ', 'AAAAAAEEEEIIIIOOOOOUUUUCNYaaaaaaeeeeiiiiooooouuuucnyy')));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_content_fold_search_idx" ON "messages" USING gin (to_tsvector('simple', translate("content", 'ÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝáàâãäåéèêëíìîïóòôõöúùûüçñýÿ', 'AAAAAAEEEEIIIIOOOOOUUUUCNYaaaaaaeeeeiiiiooooouuuucnyy')));