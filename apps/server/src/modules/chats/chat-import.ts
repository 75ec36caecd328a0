import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import {
  type ChatImportFormat,
  type ChatImportItem,
  ChatImportLimits,
  type ChatImportReport,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import type { PiiFilter } from '../../lib/pii-filter.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import {
  importBadJson,
  importNoConversations,
  importNotAnExport,
  importTooLarge,
  importUnsupportedFile,
} from './errors.ts';
import {
  detectFormat,
  type ImportedConversation,
  type ParsedConversation,
  parseConversation,
  timeline,
} from './import-formats.ts';
import { type ArrayElement, arrayElements, JsonShapeError } from './import-json.ts';
import { importStore } from './import-store.ts';
import { openExportZip, type UnpackBudget } from './import-zip.ts';
import { titleFrom } from './messages.ts';
import type { ChatsState } from './state.ts';

/** The limits an import is held to (ChatImportLimits; smaller ones in tests). */
export type ImportLimits = { -readonly [K in keyof typeof ChatImportLimits]: number };

/** The uploaded file, as the route stored it (a temporary file it removes afterwards). */
export interface ImportUpload {
  path: string;
  /** The name the person's browser gave it: for messages only. */
  fileName: string;
}

/** A chat without a title in its source and without a first question to name it. */
const UNTITLED = 'Untitled';

/** The documents of an upload: a ZIP's conversations files, or the one JSON file uploaded. */
interface Documents {
  names: readonly string[];
  /** One pass's reading of a document; the budget is the pass's (what a ZIP unpacks to). */
  read(name: string, budget: UnpackBudget): Promise<AsyncIterable<Buffer>>;
  close(): void;
}

/**
 * Imports a ChatGPT or Claude export into the caller's chats (docs/ARCHITECTURE.md#chat-import).
 * The file is read twice, as a stream each time: a first pass checks every limit and what the
 * file is, so a refused file imports nothing; the second imports each conversation in its own
 * transaction. A conversation imported before (same source id) is skipped; one that cannot be
 * read fails alone, with its reason. Audited with the counts.
 */
export async function importChats(
  s: ChatsState,
  caller: UserCaller,
  upload: ImportUpload,
  meta: AuditMeta,
  limits: ImportLimits = ChatImportLimits,
): Promise<ChatImportReport> {
  const documents = await documentsOf(upload, limits);
  try {
    const format = await survey(documents, limits);
    const report = await importAll(s, caller, documents, format, limits);
    await recordAudit(s.ctx.db, caller, meta, {
      action: 'chats.import',
      targetType: 'user',
      targetId: caller.user.id,
      domainId: caller.domain.id,
      after: {
        format,
        file: upload.fileName.slice(0, 200),
        imported: report.imported,
        skipped: report.skipped,
        failed: report.failed.length,
      },
    });
    return report;
  } finally {
    documents.close();
  }
}

/** What the first bytes say the upload is: a ZIP (local header or an empty archive), JSON, or neither. */
async function sniff(file: string): Promise<'zip' | 'json' | null> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) {
      return 'zip';
    }
    const text = bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    return text.startsWith('[') || text.startsWith('{') ? 'json' : null;
  } finally {
    await handle.close();
  }
}

async function documentsOf(upload: ImportUpload, limits: ImportLimits): Promise<Documents> {
  const kind = await sniff(upload.path);
  if (kind === null) throw importUnsupportedFile();
  if (kind === 'json') {
    const name = upload.fileName.split(/[\\/]/).pop() || 'conversations.json';
    return {
      names: [name],
      read: async () => createReadStream(upload.path, { highWaterMark: 256 * 1024 }),
      close: () => {},
    };
  }
  const zip = await openExportZip(upload.path, limits);
  if (zip.documents.length === 0) {
    zip.close();
    throw importNotAnExport('This ZIP (it has no conversations.json)');
  }
  return {
    names: zip.documents,
    read: async (name, budget) => (await zip.open(name, budget)) as AsyncIterable<Buffer>,
    close: () => zip.close(),
  };
}

/** The elements of every document in turn, with the document each came from. */
async function* elementsOf(
  documents: Documents,
  limits: ImportLimits,
): AsyncGenerator<{ document: string; element: ArrayElement }> {
  const budget: UnpackBudget = { unpacked: 0 };
  for (const document of documents.names) {
    const stream = await documents.read(document, budget);
    try {
      for await (const element of arrayElements(stream, {
        maxDocumentBytes: limits.maxJsonBytes,
        maxElementBytes: limits.maxConversationBytes,
      })) {
        yield { document, element };
      }
    } catch (err) {
      if (!(err instanceof JsonShapeError)) throw err;
      if (err.reason === 'not_array') throw importNotAnExport(document);
      if (err.reason === 'too_large') {
        throw importTooLarge(
          'json',
          limits.maxJsonBytes,
          `${document} is larger than ${Math.round(limits.maxJsonBytes / (1024 * 1024))} MiB`,
        );
      }
      throw importBadJson(document, err.message);
    }
  }
}

const parseJson = (bytes: Buffer): unknown => {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
};

/**
 * The first pass: every limit checked to the end of the file, nothing written. Answers which
 * export it is, from its first conversation that reads as one.
 */
async function survey(documents: Documents, limits: ImportLimits): Promise<ChatImportFormat> {
  let count = 0;
  let format: ChatImportFormat | null = null;
  const firstDocument = documents.names[0] ?? 'The file';
  for await (const { element } of elementsOf(documents, limits)) {
    if (++count > limits.maxConversations) {
      throw importTooLarge(
        'conversations',
        limits.maxConversations,
        `The export has more than ${limits.maxConversations} conversations`,
      );
    }
    if (format === null && element.bytes) format = detectFormat(parseJson(element.bytes));
  }
  if (count === 0) throw importNoConversations();
  if (format === null) throw importNotAnExport(firstDocument);
  return format;
}

/** The second pass: each conversation read, then stored in its own transaction. */
async function importAll(
  s: ChatsState,
  caller: UserCaller,
  documents: Documents,
  format: ChatImportFormat,
  limits: ImportLimits,
): Promise<ChatImportReport> {
  const store = importStore(s.ctx.db);
  const pii = await s.ctx.services.pii.filterFor(caller.domain.id);
  const items: ChatImportItem[] = [];
  for await (const { element } of elementsOf(documents, limits)) {
    const parsed: ParsedConversation = element.bytes
      ? parseElement(format, parseJson(element.bytes), limits)
      : {
          ok: false,
          title: '',
          reasonCode: 'too_large',
          reason: `The conversation is larger than ${Math.round(limits.maxConversationBytes / (1024 * 1024))} MiB`,
        };
    if (!parsed.ok) {
      items.push({
        title: parsed.title || UNTITLED,
        status: 'failed',
        reason: parsed.reason,
        reasonCode: parsed.reasonCode,
        messages: 0,
      });
      continue;
    }
    items.push(await storeConversation(store, caller, redacted(pii, parsed.conversation)));
  }
  const imported = items.filter((i) => i.status === 'imported').length;
  const skipped = items.filter((i) => i.status === 'skipped').length;
  return {
    format,
    imported,
    skipped,
    failed: items.flatMap((i) => (i.status === 'failed' ? [{ title: i.title, reason: i.reason ?? '' }] : [])),
    items,
  };
}

function parseElement(format: ChatImportFormat, json: unknown, limits: ImportLimits): ParsedConversation {
  if (json === undefined) return { ok: false, title: '', reasonCode: 'invalid', reason: 'Not valid JSON' };
  // One export holds one kind of conversation: another kind in it is not this export's.
  const kind = detectFormat(json);
  if (kind !== format) {
    return {
      ok: false,
      title: '',
      reasonCode: 'invalid',
      reason: `Not a ${formatName(format)} conversation`,
    };
  }
  return parseConversation(format, json, limits.maxMessagesPerConversation);
}

/**
 * What an import keeps with the domain's PII filter on (docs/ARCHITECTURE.md#pii-filter): every
 * text redacted, in block mode too — a past conversation cannot be refused message by message.
 */
function redacted(pii: PiiFilter, c: ImportedConversation): ImportedConversation {
  if (pii.settings.mode === 'off') return c;
  return {
    ...c,
    title: pii.redact(c.title),
    messages: c.messages.map((m) => ({ ...m, content: pii.redact(m.content) })),
  };
}

const formatName = (format: ChatImportFormat) => (format === 'chatgpt' ? 'ChatGPT' : 'Claude');

async function storeConversation(
  store: ReturnType<typeof importStore>,
  caller: UserCaller,
  conversation: ImportedConversation,
): Promise<ChatImportItem> {
  const firstQuestion = conversation.messages.find((m) => m.role === 'user')?.content ?? '';
  const title = (conversation.title || titleFrom(firstQuestion) || UNTITLED).slice(0, 200);
  const now = new Date();
  const at = timeline(conversation.messages, conversation.createdAt ?? conversation.updatedAt ?? now);
  const ids = new Map(conversation.messages.map((m) => [m.key, randomUUID()]));
  const rows = conversation.messages.map((m, i) => ({
    id: ids.get(m.key) as string,
    parentId: m.parentKey === null ? null : (ids.get(m.parentKey) ?? null),
    role: m.role,
    content: m.content,
    createdAt: at[i] as Date,
  }));
  const newest = Math.max(...at.map((d) => d.getTime()));
  const first = Math.min(...at.map((d) => d.getTime()));
  const createdAt = new Date(Math.min(conversation.createdAt?.getTime() ?? first, first));
  // The sidebar orders chats by their last activity: the source's, never before its last message.
  const updatedAt = new Date(Math.max(conversation.updatedAt?.getTime() ?? newest, newest));
  const chatId = randomUUID();
  const stored = await store.insertImported(
    caller,
    { id: chatId, title, importSource: conversation.source, createdAt, updatedAt },
    rows,
  );
  if (!stored.inserted) {
    return {
      title,
      status: 'skipped',
      ...(stored.existing ? { chatId: stored.existing } : {}),
      reason: 'Imported before',
      reasonCode: 'already_imported',
      messages: rows.length,
    };
  }
  return { title, status: 'imported', chatId, messages: rows.length };
}
