import { z } from 'zod';

/**
 * Limits of POST /api/v1/chats/import (docs/ARCHITECTURE.md#chat-import). A ZIP is read as a
 * stream, entry by entry; these bound what it may unpack to, so a ZIP bomb is refused early.
 */
export const ChatImportLimits = {
  /** The upload itself (a ZIP or a JSON file). */
  maxUploadBytes: 512 * 1024 * 1024,
  /** Everything the ZIP's entries unpack to, together. */
  maxUncompressedBytes: 1024 * 1024 * 1024,
  /** Entries in the ZIP (attachments included). */
  maxEntries: 20_000,
  /** Unpacked size over packed size of one entry, for entries over 1 MiB unpacked. */
  maxCompressionRatio: 100,
  /** One JSON document (conversations.json or one shard). */
  maxJsonBytes: 256 * 1024 * 1024,
  /**
   * One conversation of a document: each is parsed on its own as the document streams by, so this,
   * not the document, bounds what an import holds in memory. A larger one fails alone.
   */
  maxConversationBytes: 64 * 1024 * 1024,
  /** Conversations in one import. */
  maxConversations: 10_000,
  /** Messages in one conversation (all branches). */
  maxMessagesPerConversation: 10_000,
} as const;

export const ChatImportFormatSchema = z.enum(['chatgpt', 'claude']);
export type ChatImportFormat = z.infer<typeof ChatImportFormatSchema>;

/** What became of one conversation of the file. */
export const ChatImportItemSchema = z.object({
  title: z.string(),
  status: z.enum(['imported', 'skipped', 'failed']),
  /** The new chat (imported) or the one imported before (skipped). */
  chatId: z.string().optional(),
  /** Why it failed or was skipped, in English; `reasonCode` says it for the web to translate. */
  reason: z.string().optional(),
  reasonCode: z.enum(['already_imported', 'empty', 'too_many_messages', 'too_large', 'invalid']).optional(),
  messages: z.number().int().min(0),
});
export type ChatImportItem = z.infer<typeof ChatImportItemSchema>;

/** POST /api/v1/chats/import → what became of each conversation; the web never calls 0 imported a success. */
export const ChatImportReportSchema = z.object({
  format: ChatImportFormatSchema,
  imported: z.number().int().min(0),
  skipped: z.number().int().min(0),
  failed: z.array(z.object({ title: z.string(), reason: z.string() })),
  items: z.array(ChatImportItemSchema),
});
export type ChatImportReport = z.infer<typeof ChatImportReportSchema>;
