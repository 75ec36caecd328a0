import { z } from 'zod';
import { AddressProblemSchema, ProviderFailureSchema } from './providers.ts';
import { httpUrlSchema } from './urls.ts';

/** Where a knowledge source's documents come from (docs/ARCHITECTURE.md#knowledge-contract). */
export const KnowledgeSourceKinds = ['confluence', 'files'] as const;
export const KnowledgeSourceKindSchema = z.enum(KnowledgeSourceKinds);
export type KnowledgeSourceKind = z.infer<typeof KnowledgeSourceKindSchema>;

export const KnowledgeSourceStatusSchema = z.enum(['idle', 'syncing', 'error']);
export type KnowledgeSourceStatus = z.infer<typeof KnowledgeSourceStatusSchema>;

/**
 * Why a document was not indexed or a source's sync failed, as a code the web translates; the
 * English `error` beside it stays for API clients and logs. Bounds carry the limit they enforce;
 * `provider` carries the embedding model's failure.
 */
export const KnowledgeFailureSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('too_much_text'), limit: z.number().int() }),
  z.object({ kind: z.literal('too_many_passages'), count: z.number().int(), limit: z.number().int() }),
  z.object({ kind: z.literal('docx_too_many_parts'), limit: z.number().int() }),
  /** `limitMb`: how many megabytes the archive's markup or the PDF's streams may unpack to. */
  z.object({ kind: z.literal('docx_too_large'), limitMb: z.number().int() }),
  z.object({ kind: z.literal('pdf_too_large'), limitMb: z.number().int() }),
  /** A part or image that unpacks to more than it declares, or hides behind nested compression. */
  z.object({ kind: z.literal('deceptive_file') }),
  z.object({ kind: z.literal('unreadable') }),
  z.object({ kind: z.literal('unsupported'), contentType: z.string() }),
  z.object({ kind: z.literal('no_text') }),
  z.object({ kind: z.literal('no_file') }),
  z.object({ kind: z.literal('timeout') }),
  z.object({ kind: z.literal('out_of_memory') }),
  z.object({ kind: z.literal('reader_stopped') }),
  z.object({ kind: z.literal('shutting_down') }),
  z.object({ kind: z.literal('provider'), failure: ProviderFailureSchema }),
  z.object({ kind: z.literal('interrupted') }),
  /** Confluence refused the e-mail and token (401), or their access (403). */
  z.object({ kind: z.literal('unauthorised') }),
  z.object({ kind: z.literal('forbidden') }),
  z.object({ kind: z.literal('rate_limited') }),
  /** The stored token no longer opens (the server's secret changed): it must be entered again. */
  z.object({ kind: z.literal('token_unreadable') }),
  z.object({ kind: z.literal('space_missing'), spaces: z.array(z.string()) }),
  z.object({ kind: z.literal('http_status'), status: z.number().int() }),
  z.object({
    kind: z.literal('unreachable'),
    address: AddressProblemSchema.optional(),
    host: z.string().optional(),
  }),
  z.object({ kind: z.literal('failed') }),
]);
export type KnowledgeFailure = z.infer<typeof KnowledgeFailureSchema>;

export const KnowledgeLimits = {
  /** Spaces one Confluence source may follow. */
  spaces: 50,
  /** Files one upload request may carry. */
  filesPerUpload: 20,
  /** Chunks a chat puts in the model's context. */
  contextChunks: 6,
} as const;

/** The content types a files source takes (docs/ARCHITECTURE.md#knowledge-contract): PDF, DOCX, Markdown, HTML, text. */
export const KnowledgeUploadTypes = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/markdown',
  'text/html',
  'text/plain',
] as const;

/** A Confluence space key: letters and digits (personal spaces start with `~`). */
const SpaceKeySchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^~?[A-Za-z0-9_-]+$/, 'A space key has letters, digits, - and _ only');

/** The site's address, `https://your-site.atlassian.net` (no credentials, no path needed). */
const ConfluenceBaseUrlSchema = httpUrlSchema({
  credentials: 'Put credentials in the e-mail and API token fields, not in the URL',
});

export const ConfluenceSettingsSchema = z.strictObject({
  baseUrl: ConfluenceBaseUrlSchema,
  email: z.string().trim().min(3).max(320),
  apiToken: z.string().trim().min(1).max(2000),
  spaces: z.array(SpaceKeySchema).min(1).max(KnowledgeLimits.spaces),
});
export type ConfluenceSettings = z.infer<typeof ConfluenceSettingsSchema>;

/** What the API shows of a Confluence connection: never the token, only whether one is stored. */
export const ConfluenceSettingsViewSchema = z.object({
  baseUrl: z.string(),
  email: z.string(),
  hasApiToken: z.boolean(),
  spaces: z.array(z.string()),
});

/** Documents done out of those seen so far. */
const SyncProgressSchema = z.object({ done: z.number().int(), total: z.number().int() });

const DisplayNameSchema = z.string().trim().min(1).max(120);

export const KnowledgeSourceSchema = z.object({
  sourceId: z.string(),
  domain: z.string(),
  kind: KnowledgeSourceKindSchema,
  displayName: z.string(),
  status: KnowledgeSourceStatusSchema,
  lastSyncAt: z.string().nullable(),
  /** Documents and chunks indexed. */
  documents: z.number().int(),
  chunks: z.number().int(),
  /** Documents still waiting to be read or being indexed (counted in `documents`); absent when none. */
  indexing: z.number().int().optional(),
  /** Why the last sync failed (the source keeps what it had). */
  error: z.string().optional(),
  errorReason: KnowledgeFailureSchema.optional(),
  /** While syncing: documents done out of those seen so far. */
  progress: SyncProgressSchema.optional(),
  confluence: ConfluenceSettingsViewSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KnowledgeSource = z.infer<typeof KnowledgeSourceSchema>;

export const KnowledgeSourceCreateSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('confluence'),
    displayName: DisplayNameSchema,
    confluence: ConfluenceSettingsSchema,
  }),
  z.strictObject({ kind: z.literal('files'), displayName: DisplayNameSchema }),
]);
export type KnowledgeSourceCreate = z.infer<typeof KnowledgeSourceCreateSchema>;

/** A change: an empty or absent `apiToken` keeps the stored one (the form never has it). */
export const KnowledgeSourceUpdateSchema = z.strictObject({
  displayName: DisplayNameSchema.optional(),
  confluence: z
    .strictObject({
      baseUrl: ConfluenceBaseUrlSchema.optional(),
      email: z.string().trim().min(3).max(320).optional(),
      apiToken: z.string().trim().max(2000).optional(),
      spaces: z.array(SpaceKeySchema).min(1).max(KnowledgeLimits.spaces).optional(),
    })
    .optional(),
});
export type KnowledgeSourceUpdate = z.infer<typeof KnowledgeSourceUpdateSchema>;

/**
 * `?domain=` lets a SuperAdmin act on another domain. Not strict: the web client adds its hint
 * parameters (`department`, `user`, `email`) to every call.
 */
const DomainQuery = z
  .string()
  .trim()
  .max(253)
  .describe('The domain a SuperAdmin acts on; anyone else may name only their own')
  .optional()
  .transform((d) => d || undefined);
export const KnowledgeQuerySchema = z.object({ domain: DomainQuery });

export const KnowledgeDocumentStatusSchema = z.enum(['pending', 'indexing', 'ready', 'error']);
export type KnowledgeDocumentStatus = z.infer<typeof KnowledgeDocumentStatusSchema>;

export const KnowledgeDocumentSchema = z.object({
  documentId: z.string(),
  sourceId: z.string(),
  title: z.string(),
  /** Where a citation links: the Confluence page, or the document's download address. */
  url: z.string(),
  status: KnowledgeDocumentStatusSchema,
  contentType: z.string().nullable(),
  size: z.number().int().nullable(),
  chunks: z.number().int(),
  error: z.string().optional(),
  errorReason: KnowledgeFailureSchema.optional(),
  updatedAt: z.string(),
});
export type KnowledgeDocument = z.infer<typeof KnowledgeDocumentSchema>;

export const KnowledgeDocumentListQuerySchema = z.object({
  domain: DomainQuery,
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().max(500).optional(),
});

/**
 * What changed in a domain's knowledge, pushed to its Admins' screens
 * (`GET /api/v1/integration/knowledge/events`). Each carries what the process that made the
 * change already had in hand — no read of its own — so a screen patches what it shows and reads
 * the rest (a new document's title, the counts) when it needs it.
 */
export const KnowledgeEventSchema = z.discriminatedUnion('type', [
  /**
   * A source's sync state. `progress` while syncing; `error` when the state is `error`. An
   * `idle` source has no error; a `syncing` one keeps whatever it showed.
   */
  z.object({
    type: z.literal('source'),
    sourceId: z.string(),
    status: KnowledgeSourceStatusSchema,
    progress: SyncProgressSchema.optional(),
    error: z.string().optional(),
    errorReason: KnowledgeFailureSchema.optional(),
  }),
  z.object({ type: z.literal('source.removed'), sourceId: z.string() }),
  /** A document's indexing state; `chunks` once `ready`, `error` when `error`. */
  z.object({
    type: z.literal('document'),
    sourceId: z.string(),
    documentId: z.string(),
    status: KnowledgeDocumentStatusSchema,
    chunks: z.number().int().optional(),
    error: z.string().optional(),
    errorReason: KnowledgeFailureSchema.optional(),
  }),
  z.object({ type: z.literal('document.removed'), sourceId: z.string(), documentId: z.string() }),
]);
export type KnowledgeEvent = z.infer<typeof KnowledgeEventSchema>;

/**
 * One server-sent event of the knowledge stream (its SSE `event:` is the `type`). `ready` comes
 * first, once every change from then on is sure to arrive: a screen reads what it shows after it.
 */
export const KnowledgeStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  ...KnowledgeEventSchema.options,
]);
export type KnowledgeStreamEvent = z.infer<typeof KnowledgeStreamEventSchema>;

/** A source as the santito editor offers it (Editors and above of the domain). */
export const KnowledgeSourceChoiceSchema = z.object({
  sourceId: z.string(),
  kind: KnowledgeSourceKindSchema,
  displayName: z.string(),
  documents: z.number().int(),
});
export type KnowledgeSourceChoice = z.infer<typeof KnowledgeSourceChoiceSchema>;

/** One answer's source: shown as a numbered link under it. */
export const CitationSchema = z.object({
  title: z.string(),
  url: z.string(),
  sourceId: z.string(),
});
export type Citation = z.infer<typeof CitationSchema>;

/** "Test connection": each space the token can read, with its page count. */
export const ConfluenceTestResultSchema = z.object({
  ok: z.boolean(),
  spaces: z.array(z.object({ key: z.string(), name: z.string(), pages: z.number().int() })),
  /** Keys asked for that the site does not have (or the token cannot see). */
  missing: z.array(z.string()),
  /** Why it failed, in English for API clients; the web says `reason` in words. */
  message: z.string().optional(),
  reason: KnowledgeFailureSchema.optional(),
});
export type ConfluenceTestResult = z.infer<typeof ConfluenceTestResultSchema>;

/** Santitos list sources as `{ kind: "source", ref: sourceId }` (docs/ARCHITECTURE.md#knowledge-contract). */
export const KNOWLEDGE_SOURCE_REF_KIND = 'source';
