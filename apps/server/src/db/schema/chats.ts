import type {
  AttachmentReading,
  Citation,
  Message,
  MessagePart,
  MessageStatus,
  ProviderFailure,
  ShareAudience,
} from '@assistente/contracts';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains, users } from './accounts.ts';
import { santitos } from './santitos.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Accent folding for full-text search, in plain SQL so PGlite and PostgreSQL agree without the
 * unaccent extension. The search indexes and the search queries must use this exact expression.
 */
export const FOLD_FROM = 'ÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝáàâãäåéèêëíìîïóòôõöúùûüçñýÿ';
export const FOLD_TO = 'AAAAAAEEEEIIIIOOOOOUUUUCNYaaaaaaeeeeiiiiooooouuuucnyy';
export const searchVector = (column: SQL | AnyPgColumn) =>
  sql`to_tsvector('simple', translate(${column}, ${sql.raw(`'${FOLD_FROM}'`)}, ${sql.raw(`'${FOLD_TO}'`)}))`;

/** The open chat's parameters (the customParamsSidebar), kept per chat. */
export type ChatParams = {
  model?: string;
  temperature?: number;
  maxTokens?: number;
  instructions?: string;
};

export type MessageUsage = { inputTokens: number; outputTokens: number; totalTokens: number };

/**
 * New entries of the search indexes wait in a pending list that the insert which fills it merges
 * into the index. PGlite has no autovacuum to do it earlier, so with the default 4 MB one unlucky
 * answer's final write took over a second, holding up every stream; 64 kB (the least PostgreSQL
 * allows) keeps each merge to milliseconds.
 */
const GIN_PENDING_KB = 64;

export const chats = pgTable(
  'chats',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domainId: text('domain_id').notNull(),
    agentId: text('agent_id').references(() => santitos.id, { onDelete: 'set null' }),
    title: text('title').notNull().default(''),
    pinned: boolean('pinned').notNull().default(false),
    params: jsonb('params').$type<ChatParams>().notNull().default({}),
    /** Tools the owner allowed for the rest of this chat ("allow for this chat"). */
    allowedTools: jsonb('allowed_tools').$type<string[]>().notNull().default([]),
    /** Soft delete, so the sidebar can offer undo; purged later. */
    deletedAt: at('deleted_at'),
    /** Where an imported chat came from (`chatgpt:{id}`, `claude:{uuid}`): importing it again skips it. */
    importSource: text('import_source'),
    ...timestamps,
  },
  (t) => [
    // The sidebar's order: pinned first, then newest first (keyset paging over these columns).
    index('chats_user_list_idx').on(t.userId, t.pinned.desc(), t.updatedAt.desc(), t.id.desc()),
    // Retention reads a domain's chats by last activity, oldest first, a batch at a time.
    index('chats_domain_updated_idx').on(t.domainId, t.updatedAt),
    uniqueIndex('chats_user_import_source_idx')
      .on(t.userId, t.importSource)
      .where(sql`${t.importSource} is not null`),
    index('chats_title_fold_search_idx')
      .using('gin', searchVector(t.title))
      .with({ gin_pending_list_limit: GIN_PENDING_KB }),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    /** The message this one answers or follows; edits and regenerations branch from it. */
    parentId: text('parent_id'),
    role: text('role').$type<'user' | 'assistant'>().notNull(),
    content: text('content').notNull().default(''),
    status: text('status').$type<MessageStatus>().notNull().default('complete'),
    model: text('model'),
    usage: jsonb('usage').$type<MessageUsage>(),
    error: text('error'),
    /** The error's code (contracts' ErrorCode), so the web says it in the reader's language. */
    errorCode: text('error_code'),
    /** A provider's failure, as a code and its details the web translates (contracts' ProviderFailure). */
    errorReason: jsonb('error_reason').$type<ProviderFailure>(),
    attachmentIds: jsonb('attachment_ids').$type<string[]>().notNull().default([]),
    /** The knowledge an answer drew on (docs/ARCHITECTURE.md#knowledge); null for answers without knowledge. */
    citations: jsonb('citations').$type<Citation[]>(),
    /** On an answer: the question's files its model read only in part; null when it read them all. */
    attachmentReadings: jsonb('attachment_readings').$type<AttachmentReading[]>(),
    /** An answer's steps when it called tools (text cut at each call, and the calls); null otherwise. */
    parts: jsonb('parts').$type<MessagePart[]>(),
    /** On an answer: the person's memories were in its instructions. */
    usedMemory: boolean('used_memory').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('messages_chat_created_idx').on(t.chatId, t.createdAt, t.id),
    // Answers still streaming are left out: their text changes several times a second, and
    // re-indexing it on every flush was most of the database's work with many answers at once.
    index('messages_content_fold_search_idx')
      .using('gin', searchVector(t.content))
      .with({ gin_pending_list_limit: GIN_PENDING_KB })
      .where(sql`${t.status} <> 'streaming'`),
    // The stale-answer sweep runs every few seconds: it reads only the few answers streaming.
    index('messages_streaming_idx').on(t.updatedAt).where(sql`${t.status} = 'streaming'`),
    // Paused answers are denied after 24 h by a sweep that reads only them.
    index('messages_awaiting_idx').on(t.updatedAt).where(sql`${t.status} = 'awaiting_approval'`),
  ],
);

/**
 * The text of answers still streaming, as it arrives: one row per answer and flush, `at` being where
 * the piece starts in the answer's text. Appending small rows costs the same however long the answer
 * is, where rewriting the message row cost its whole (indexed, toasted) text every time. The pieces
 * are folded into `messages.content` when the answer ends — by its writer, or by the stale-answer
 * sweep after a crash — and read with it meanwhile (`streamedContent`). No foreign key: its check
 * would lock the message row on every flush; every path that ends an answer deletes its pieces.
 */
export const messageChunks = pgTable(
  'message_chunks',
  {
    messageId: text('message_id').notNull(),
    at: integer('at').notNull(),
    text: text('text').notNull(),
  },
  // A flush retried after a lost reply writes the same `at` again (with more text): it replaces.
  (t) => [primaryKey({ columns: [t.messageId, t.at] })],
);

/** A message's text with the pieces of it still to fold in (see `messageChunks`). */
export const streamedContent = sql<string>`(${messages.content} || coalesce((select string_agg(${messageChunks.text}, '' order by ${messageChunks.at}) from ${messageChunks} where ${messageChunks.messageId} = ${messages.id}), ''))`;

export const attachments = pgTable(
  'attachments',
  {
    id: text('id').primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    domainId: text('domain_id').notNull(),
    /** The uploaded file name: metadata only, never a path. */
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** Its file was deleted by retention: the row stays, so the message still says a file was there. */
    removedAt: at('removed_at'),
  },
  (t) => [
    index('attachments_chat_idx').on(t.chatId),
    // The quota sums a domain's files; retention reads them by age.
    index('attachments_domain_idx').on(t.domainId, t.createdAt),
  ],
);

/**
 * A share link (docs/ARCHITECTURE.md#share-links): a snapshot of one branch of a chat, taken when the
 * link was made, so later edits do not change it. Its files stay the chat's attachments; deleting the
 * chat deletes its links. Revoking deletes the row.
 */
export const chatShares = pgTable(
  'chat_shares',
  {
    id: text('id').primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domainId: text('domain_id').notNull(),
    /** The owner's department when the link was made (audience `department`). */
    departmentId: text('department_id').notNull(),
    audience: text('audience').$type<ShareAudience>().notNull(),
    title: text('title').notNull(),
    santitoName: text('santito_name'),
    /** The branch, root → leaf, as the API shows messages (attachment urls rewritten on reading). */
    messages: jsonb('messages').$type<Message[]>().notNull(),
    views: integer('views').notNull().default(0),
    expiresAt: at('expires_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('chat_shares_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('chat_shares_chat_idx').on(t.chatId),
  ],
);

/** A domain's sharing settings; no row is the default (no public links). */
export const sharingSettings = pgTable('sharing_settings', {
  domainId: text('domain_id')
    .primaryKey()
    .references(() => domains.id, { onDelete: 'cascade' }),
  publicLinks: boolean('public_links').notNull().default(false),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
