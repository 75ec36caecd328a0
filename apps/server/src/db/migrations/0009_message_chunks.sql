CREATE TABLE IF NOT EXISTS "message_chunks" (
	"message_id" text NOT NULL,
	"at" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "message_chunks_message_id_at_pk" PRIMARY KEY("message_id","at")
);
