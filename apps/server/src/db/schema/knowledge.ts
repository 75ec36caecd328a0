import type {
  KnowledgeDocumentStatus,
  KnowledgeFailure,
  KnowledgeSourceKind,
  KnowledgeSourceStatus,
} from '@assistente/contracts';
import type { SQL } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains } from './accounts.ts';
import { searchVector } from './chats.ts';

/** PostgreSQL's `tsvector`, only ever written by the database (a generated column). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** What a Confluence source keeps in clear; the API token is sealed apart (`api_token_enc`). */
export type ConfluenceConfig = { baseUrl: string; email: string; spaces: string[] };

/** A domain's knowledge source (docs/ARCHITECTURE.md#knowledge): a Confluence site's spaces, or uploaded files. */
export const knowledgeSources = pgTable(
  'knowledge_sources',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<KnowledgeSourceKind>().notNull(),
    displayName: text('display_name').notNull(),
    status: text('status').$type<KnowledgeSourceStatus>().notNull().default('idle'),
    error: text('error'),
    /** Why, as a code the web translates (null on rows from before it was kept). */
    errorReason: jsonb('error_reason').$type<KnowledgeFailure>(),
    /** While a sync runs: documents done of those seen so far. */
    progress: jsonb('progress').$type<{ done: number; total: number } | null>(),
    lastSyncAt: at('last_sync_at'),
    /** When the scheduler next syncs it (Confluence only); "sync now" sets it to now. */
    nextSyncAt: at('next_sync_at'),
    confluence: jsonb('confluence').$type<ConfluenceConfig | null>(),
    /** AES-256-GCM sealed, bound to the row id (lib/secrets.ts). */
    apiTokenEnc: text('api_token_enc'),
    ...timestamps,
  },
  (t) => [
    index('knowledge_sources_domain_idx').on(t.domainId, t.createdAt),
    index('knowledge_sources_next_sync_idx').on(t.nextSyncAt),
  ],
);

/** A document's or chunk's id, and the domain and source it goes with (and goes away with). */
const ofSource = () => ({
  id: text('id').primaryKey(),
  domainId: text('domain_id')
    .notNull()
    .references(() => domains.id, { onDelete: 'cascade' }),
  sourceId: text('source_id')
    .notNull()
    .references(() => knowledgeSources.id, { onDelete: 'cascade' }),
});

/** One page or uploaded file of a source; its text lives on in its chunks. */
export const knowledgeDocuments = pgTable(
  'knowledge_documents',
  {
    ...ofSource(),
    /** The Confluence page id, or null for an upload. */
    externalId: text('external_id'),
    /** Confluence `version.number`: a page is indexed again only when it grows. */
    version: integer('version'),
    title: text('title').notNull(),
    url: text('url').notNull(),
    status: text('status').$type<KnowledgeDocumentStatus>().notNull().default('pending'),
    error: text('error'),
    errorReason: jsonb('error_reason').$type<KnowledgeFailure>(),
    contentType: text('content_type'),
    size: integer('size'),
    /** The uploaded original in the knowledge bucket. */
    storageKey: text('storage_key'),
    chunks: integer('chunks').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('knowledge_documents_source_idx').on(t.sourceId, t.createdAt, t.id),
    uniqueIndex('knowledge_documents_external_idx').on(t.sourceId, t.externalId),
  ],
);

/** The chunks' full-text index, named where upkeep and tests refer to it (knowledge/upkeep.ts). */
export const KNOWLEDGE_SEARCH_INDEX = 'knowledge_chunks_search_vector_idx';

/**
 * A piece of a document with its embedding, unit-length so cosine similarity is a dot product.
 * `real[]` works on every PostgreSQL; the full-text index beside it serves the keyword half of
 * hybrid retrieval.
 */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    ...ofSource(),
    documentId: text('document_id')
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: 'cascade' }),
    ord: integer('ord').notNull(),
    /** The headings above the chunk, "Guide › Install", shown to the model with the title. */
    heading: text('heading').notNull().default(''),
    text: text('text').notNull(),
    /** Unit length; empty when the domain had no embedding model (keyword search still finds it). */
    embedding: real('embedding').array().notNull(),
    /** `provider:model` that made `embedding`: vectors of different models are never compared. */
    embeddingModel: text('embedding_model').notNull().default(''),
    /**
     * The text's full-text vector, stored: ranking recomputed it from the text for every matching
     * row (≈ 1.9 s over 100,000 chunks on PGlite against ≈ 0.15 s stored).
     */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs((): SQL => searchVector(knowledgeChunks.text)),
  },
  (t) => [
    index('knowledge_chunks_source_idx').on(t.sourceId),
    index('knowledge_chunks_document_idx').on(t.documentId, t.ord),
    index(KNOWLEDGE_SEARCH_INDEX).using('gin', t.search),
  ],
);
