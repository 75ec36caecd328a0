-- ANALYZE of knowledge_chunks kept statistics of every column, the embeddings' 256 or more floats
-- per row and the long texts included: ≈ 9 s over 50,000 chunks on PGlite, run after every sync.
-- No query filters or joins on these columns, so the planner never read those statistics; the
-- full-text column's (which retrieval reads for its common words) and the keys' stay.
ALTER TABLE "knowledge_chunks" ALTER COLUMN "embedding" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ALTER COLUMN "text" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ALTER COLUMN "heading" SET STATISTICS 0;
