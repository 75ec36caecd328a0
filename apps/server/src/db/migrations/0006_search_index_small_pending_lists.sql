ALTER INDEX "chats_title_fold_search_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "messages_content_fold_search_idx" SET (gin_pending_list_limit = 64);
