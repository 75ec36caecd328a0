import { randomUUID } from 'node:crypto';
import { buffer as readAll } from 'node:stream/consumers';
import {
  type AnswerError,
  type Attachment,
  AttachmentLimits,
  type AttachmentReading,
  type Chat,
  type ChatCreate,
  type ChatExportQuery,
  type ChatListQuery,
  type ChatParams,
  type ChatUpdate,
  type Citation,
  type Message,
  type MessageListQuery,
  type MessageStatus,
  type MessageUsage,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { invalidField } from '../../lib/errors.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import { callerLocale, type LocaleHints } from '../accounts/locale.ts';
import { santitoNotAvailable } from '../santitos/index.ts';
import {
  assertRoomLeft,
  deleteStored,
  type ReadUpload,
  type StoredObject,
  storeUpload,
} from '../storage/index.ts';
import { type MessageRow, toAttachment, toChat, toMessage } from './dto.ts';
import { attachmentNotFound, attachmentSent, chatNotFound, messageNotFound, noSuchParent } from './errors.ts';
import { currentBranch, exportFileName, toJsonExport, toMarkdownExport } from './export.ts';
import { authorizeAttach, authorizeUpdate, type ChatCaller, newChatAgent } from './policy.ts';
import { type NewMessage, toRow } from './rows.ts';
import {
  CHAT_CURSOR_TAG,
  type ContextRow,
  chatsStore,
  type ExchangeChat,
  hasSearchableWords,
} from './store.ts';

/** How long after a delete the chat can still be restored (the sidebar's undo); then it is purged. */
const CHAT_RESTORE_WINDOW_MS = 30_000;
/**
 * How long a chat made for a new message's files waits for that message (it is out of the lists
 * meanwhile); then it is purged with its files, which would otherwise hold the domain's quota.
 */
const DRAFT_CHAT_TTL_MS = 24 * 60 * 60_000;
/** Longest user message accepted. */
const MAX_MESSAGE_CHARS = 100_000;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isId = (id: string) => UUID_RE.test(id);

let lastTick = 0;
/**
 * Strictly increasing timestamps (ms) within the process, so messages written in one burst keep
 * their order and the list's keyset cursor never sees two rows of one user at the same instant.
 */
function tick(): Date {
  lastTick = Math.max(Date.now(), lastTick + 1);
  return new Date(lastTick);
}

/** A chat title from the first words of a message: one line, at most 80 characters. */
export function titleFrom(text: string): string {
  const line = text
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/[#>*_`~[\]|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= 80) return line;
  const cut = line.slice(0, 80);
  const space = cut.lastIndexOf(' ');
  return `${(space > 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A user message checked and ready to store (see `prepareUserMessage`). */
export interface PreparedUserMessage {
  row: NewMessage;
  /** As it will be once stored. */
  message: Message;
  /** With `forModel`: the messages it follows, root → parent. */
  branch?: ContextMessage[];
}

/** A message as a model's context needs it (its attachments are loaded with their bytes later). */
export interface ContextMessage {
  messageId: string;
  role: Message['role'];
  content: string;
  attachmentIds: string[];
}

const toContext = (rows: ContextRow[]): ContextMessage[] =>
  rows.map((r) => ({ messageId: r.id, role: r.role, content: r.content, attachmentIds: r.attachmentIds }));

/** An attachment's bytes for a model call. */
export interface AttachmentForModel {
  attachmentId: string;
  name: string;
  contentType: string;
  size: number;
  data: Buffer;
}

/**
 * The chats manager (docs/ARCHITECTURE.md#chat-message-data-path). Caller-taking methods answer 404 for anything that is not the
 * caller's own live chat; the others are for the agents websocket, on ids it got from them.
 */
export function chatsService(ctx: AppContext, store = chatsStore(ctx.db)) {
  const santitos = ctx.services.santitos;
  const bucket = () => ctx.services.storage.bucket('chats');
  const cursors = cursorsFor(ctx.config);

  async function ownChat(caller: ChatCaller, chatId: string) {
    if (!isId(chatId)) throw chatNotFound();
    const row = await store.findChat(caller, chatId);
    if (!row) throw chatNotFound();
    return row;
  }

  async function withFiles(caller: ChatCaller, chatId: string, rows: MessageRow[]): Promise<Message[]> {
    const files = await store.attachmentsOf(caller, chatId, rows);
    return rows.map((r) => toMessage(r, files));
  }

  const deleteObjects = (keys: readonly string[]) => deleteStored(ctx, 'chats', keys);

  return {
    // ---- For the agents websocket (and the HTTP routes) ----

    /** The caller's own live chat, or 404 NOT_FOUND "Chat not found". */
    async getChatForCaller(caller: ChatCaller, chatId: string): Promise<Chat> {
      return toChat(await ownChat(caller, chatId));
    },

    /**
     * Creates a chat for the caller; its santito (`newChatAgent`: a visitor's is their embed's) must
     * be one they may use (else 400).
     */
    async createChat(caller: ChatCaller, body: ChatCreate): Promise<Chat> {
      const agentId = newChatAgent(caller, body.agentId);
      if (agentId !== null && !(await santitos.findUsable(caller, agentId))) {
        throw santitoNotAvailable();
      }
      const row = await store.insertChat(caller, {
        id: randomUUID(),
        title: body.title ?? '',
        agentId,
        params: {},
        now: tick(),
      });
      return toChat(row);
    },

    /** One message of the caller's chat (404 otherwise): the target of regenerate and edit. */
    async getMessageForCaller(caller: ChatCaller, chatId: string, messageId: string): Promise<Message> {
      await ownChat(caller, chatId);
      const row = isId(messageId) ? await store.findMessage(caller, chatId, messageId) : undefined;
      if (!row) throw messageNotFound();
      return (await withFiles(caller, chatId, [row]))[0]!;
    },

    /**
     * Checks the caller's message and answers it as it will be stored (by `commitExchange`, with
     * its answer). `parentId`: omitted → after the newest message of the chat; null → a new root
     * (editing the first message); an id → after that message of this chat (edit-and-resend makes a
     * sibling branch). Attachments must have been uploaded to this chat by the caller. Bad input →
     * 400; not their chat → 404. `forModel`: the branch it follows comes back too, for the model's
     * context; the chat is `new` (stored with this message, see `newChat`), or was `loaded` as the
     * caller's just before.
     */
    async prepareUserMessage(
      caller: ChatCaller,
      chatId: string,
      input: { content: string; parentId?: string | null; attachmentIds?: string[] },
      forModel?: 'new' | 'loaded',
    ): Promise<PreparedUserMessage> {
      if (!forModel) await ownChat(caller, chatId);
      const attachmentIds = [...new Set(input.attachmentIds ?? [])];
      if (input.content.length > MAX_MESSAGE_CHARS) {
        throw invalidField('content', `A message can have at most ${MAX_MESSAGE_CHARS} characters`);
      }
      if (input.content.trim() === '' && attachmentIds.length === 0) {
        throw invalidField('content', 'The message is empty');
      }
      if (attachmentIds.length > AttachmentLimits.perMessage) {
        throw invalidField('attachments', `At most ${AttachmentLimits.perMessage} files per message`);
      }
      let parentId: string | null;
      let branch: ContextRow[] | undefined;
      if (forModel === 'new') {
        if (input.parentId) throw noSuchParent();
        parentId = null;
      } else if (forModel === 'loaded' && input.parentId !== null) {
        // The model's context comes with the parent, in the same round trip.
        if (input.parentId !== undefined && !isId(input.parentId)) throw noSuchParent();
        branch = await store.streamBranchTo(chatId, input.parentId ?? null);
        if (input.parentId !== undefined && branch.length === 0) throw noSuchParent();
        parentId = branch.at(-1)?.id ?? null;
      } else if (input.parentId === undefined) {
        parentId = (await store.latestMessage(caller, chatId))?.id ?? null;
      } else if (input.parentId === null) {
        parentId = null;
      } else {
        const parent = isId(input.parentId)
          ? await store.findMessage(caller, chatId, input.parentId)
          : undefined;
        if (!parent) throw noSuchParent();
        parentId = parent.id;
      }
      const files = await store.findAttachments(
        caller,
        chatId,
        attachmentIds.filter((id) => isId(id)),
      );
      if (files.length !== attachmentIds.length) {
        throw invalidField('attachments', 'Unknown attachment for this chat');
      }
      const row: NewMessage = {
        id: randomUUID(),
        chatId,
        parentId,
        role: 'user',
        content: input.content,
        status: 'complete',
        attachmentIds,
        createdAt: tick(),
      };
      return {
        row,
        message: toMessage(toRow(row), new Map(files.map((f) => [f.id, f]))),
        ...(forModel ? { branch: toContext(branch ?? []) } : {}),
      };
    },

    /**
     * A new chat as it will be stored with its first exchange (see `commitExchange`): nothing is
     * stored before the first message is, so a send that fails leaves no empty chat behind.
     * `agentId` must have been checked as a santito the caller may use.
     */
    newChat(
      caller: ChatCaller,
      input: { agentId: string | null; params: ChatParams; title: string },
    ): Extract<ExchangeChat, { kind: 'create' }> {
      return { kind: 'create', owner: caller, id: randomUUID(), ...input };
    },

    /**
     * Stores a prepared message together with its answer, empty and `streaming`, and what they do
     * to the chat (`chat`: create it, or touch it with new params or a first title), in one
     * statement: the question is committed no later than its answer exists, in one round trip.
     */
    async commitExchange(
      prepared: PreparedUserMessage,
      model: string | null,
      chat: ExchangeChat,
    ): Promise<{ chat: Chat; question: Message; answer: Message }> {
      const answer: NewMessage = {
        id: randomUUID(),
        chatId: prepared.row.chatId,
        parentId: prepared.row.id,
        role: 'assistant',
        content: '',
        status: 'streaming',
        model,
        createdAt: tick(),
      };
      const stored = await store.insertExchange(chat, [prepared.row, answer]);
      if (!stored) throw chatNotFound();
      return {
        chat: toChat(stored),
        question: prepared.message,
        answer: toMessage(toRow(answer)),
      };
    },

    /** Starts an assistant answer under `parentId`: empty, status 'streaming', committed. */
    async createAssistantMessage(
      chatId: string,
      parentId: string | null,
      model: string | null,
    ): Promise<Message> {
      const row: NewMessage = {
        id: randomUUID(),
        chatId,
        parentId,
        role: 'assistant',
        content: '',
        status: 'streaming',
        model,
        createdAt: tick(),
      };
      if (!(await store.insertExchange({ kind: 'touch', id: chatId }, [row]))) throw chatNotFound();
      return toMessage(toRow(row));
    },

    /**
     * Ends an answer: final status, optionally the final text, token usage and a user-facing error.
     * Only the first end counts; later calls answer the message as it was ended.
     */
    async finishAssistantMessage(
      messageId: string,
      end: {
        status: Exclude<MessageStatus, 'streaming'>;
        content?: string;
        usage?: MessageUsage;
        error?: AnswerError;
        model?: string;
        citations?: Citation[];
        attachmentReadings?: AttachmentReading[];
      },
    ): Promise<Message> {
      const row = await store.streamFinish(
        messageId,
        {
          status: end.status,
          ...(end.content !== undefined ? { content: end.content } : {}),
          ...(end.usage !== undefined ? { usage: end.usage } : {}),
          ...(end.error !== undefined
            ? { error: end.error.message, errorCode: end.error.code, errorReason: end.error.reason ?? null }
            : {}),
          ...(end.model !== undefined ? { model: end.model } : {}),
          ...(end.citations?.length ? { citations: end.citations } : {}),
          ...(end.attachmentReadings?.length ? { attachmentReadings: end.attachmentReadings } : {}),
        },
        tick(),
      );
      if (!row) throw messageNotFound();
      return toMessage(row);
    },

    /** The branch root → `leafMessageId` of a chat: the model's context. */
    async listMessagesForContext(chatId: string, leafMessageId: string): Promise<ContextMessage[]> {
      return toContext(await store.streamBranchTo(chatId, leafMessageId));
    },

    /** The bytes of the caller's attachments among `ids`, for models that take files; unknown ids are left out. */
    async getAttachmentsForModel(caller: ChatCaller, ids: readonly string[]): Promise<AttachmentForModel[]> {
      const rows = await store.findOwnAttachments(
        caller,
        ids.filter((id) => isId(id)),
      );
      const out: AttachmentForModel[] = [];
      for (const row of rows) {
        try {
          const object = await bucket().get(row.storageKey);
          out.push({
            attachmentId: row.id,
            name: row.name,
            contentType: row.contentType,
            size: row.size,
            data: await readAll(object.body),
          });
        } catch (err) {
          ctx.log.warn({ err, attachmentId: row.id }, 'attachment bytes missing from storage');
        }
      }
      return out;
    },

    // ---- HTTP ----

    async listChats(caller: ChatCaller, query: ChatListQuery): Promise<Page<Chat>> {
      const after = cursors.parse(CHAT_CURSOR_TAG, query.cursor, 3);
      const q = query.q?.trim();
      if (q && !hasSearchableWords(q)) return { items: [], total: 0 };
      const page = await store.listChats(caller, {
        limit: query.limit,
        ...(after ? { after } : {}),
        ...(q ? { q } : {}),
      });
      return cursors.page(CHAT_CURSOR_TAG, page, toChat);
    },

    async updateChat(caller: ChatCaller, chatId: string, body: ChatUpdate): Promise<Chat> {
      authorizeUpdate(caller, body);
      await ownChat(caller, chatId);
      const row = await store.updateChat(caller, chatId, {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.pinned !== undefined ? { pinned: body.pinned } : {}),
        ...(body.params !== undefined ? { params: body.params ?? {} } : {}),
      });
      if (!row) throw chatNotFound();
      return toChat(row);
    },

    /** Soft delete: gone from every read at once, restorable for CHAT_RESTORE_WINDOW_MS, then purged. */
    async deleteChat(caller: ChatCaller, chatId: string): Promise<void> {
      await ownChat(caller, chatId);
      if (!(await store.softDeleteChat(caller, chatId, new Date()))) throw chatNotFound();
    },

    /** Undoes a delete within the window; afterwards the chat is as gone as one never made (404). */
    async restoreChat(caller: ChatCaller, chatId: string): Promise<Chat> {
      if (!isId(chatId)) throw chatNotFound();
      const row = await store.restoreChat(caller, chatId, new Date(Date.now() - CHAT_RESTORE_WINDOW_MS));
      if (!row) throw chatNotFound();
      return toChat(row);
    },

    async listMessages(
      caller: ChatCaller,
      chatId: string,
      query: MessageListQuery,
    ): Promise<{ items: Message[]; nextCursor?: string }> {
      await ownChat(caller, chatId);
      let before: MessageRow | undefined;
      if (query.before !== undefined) {
        before = await store.findMessage(caller, chatId, query.before);
        if (!before) throw invalidField('before', 'No such message in this chat');
      }
      const page = await store.listMessages(caller, chatId, {
        limit: query.limit,
        ...(before ? { before } : {}),
      });
      return {
        items: await withFiles(caller, chatId, page.items),
        ...(page.nextBefore ? { nextCursor: page.nextBefore } : {}),
      };
    },

    /**
     * The chat as a download: Markdown (one branch, labelled in the caller's language) or JSON
     * (every message). The branch is the one ending at `query.leaf`, else the newest message's;
     * a `leaf` that is not a message of this chat is 404.
     */
    async exportChat(
      caller: ChatCaller,
      chatId: string,
      query: ChatExportQuery,
      hints: LocaleHints,
      /** Provider id → its name, so answers name their model as people read it. */
      providerLabels?: ReadonlyMap<string, string>,
    ): Promise<{ fileName: string; contentType: string; body: string }> {
      const chat = toChat(await ownChat(caller, chatId));
      const rows = await store.allMessages(caller, chatId);
      if (query.leaf !== undefined && !rows.some((r) => r.id === query.leaf)) throw messageNotFound();
      const messages = await withFiles(caller, chatId, rows);
      const branch = currentBranch(messages, query.leaf);
      const now = new Date();
      return query.format === 'json'
        ? {
            fileName: exportFileName(chat, 'json'),
            contentType: 'application/json; charset=utf-8',
            body: `${JSON.stringify(toJsonExport(chat, messages, now, branch.at(-1)?.messageId), null, 2)}\n`,
          }
        : {
            fileName: exportFileName(chat, 'md'),
            contentType: 'text/markdown; charset=utf-8',
            body: toMarkdownExport(chat, branch, {
              now,
              locale: callerLocale(caller, hints),
              timeZone: query.timeZone,
              baseUrl: ctx.config.publicUrl,
              ...(providerLabels ? { providerLabels } : {}),
            }),
          };
    },

    /** Before reading an upload: 404 unless the caller's chat, 402 when the domain has no room left. */
    async checkUpload(caller: ChatCaller, chatId: string): Promise<void> {
      authorizeAttach(caller);
      await ownChat(caller, chatId);
      await assertRoomLeft(ctx, caller.domain.id);
    },

    /**
     * Stores an upload in the chats bucket under a generated key. 413 over UPLOAD_MAX_BYTES, 415 for
     * a type not allowed (or bytes that disagree with it), 402 when the domain's quota would be exceeded.
     */
    async uploadAttachment(caller: ChatCaller, chatId: string, file: ReadUpload): Promise<Attachment> {
      authorizeAttach(caller);
      await ownChat(caller, chatId);
      const row = await storeUpload(ctx, {
        bucket: 'chats',
        domainId: caller.domain.id,
        file,
        maxBytes: ctx.config.UPLOAD_MAX_BYTES,
        record: async (tx, stored) => {
          // The chat may have been deleted while the bytes were stored.
          if (!(await store.findChat(caller, chatId, tx))) throw chatNotFound();
          return store.insertAttachment(tx, caller, {
            id: randomUUID(),
            chatId,
            name: cleanFileName(file.fileName),
            contentType: stored.contentType,
            size: stored.size,
            storageKey: stored.key,
            createdAt: new Date(),
          });
        },
      });
      return toAttachment(row);
    },

    /** An attachment of the caller's chat, ready to stream; 404 when it or its bytes are missing. */
    async openAttachment(
      caller: ChatCaller,
      chatId: string,
      attachmentId: string,
    ): Promise<{ object: StoredObject; fileName: string }> {
      await ownChat(caller, chatId);
      const [row] = isId(attachmentId) ? await store.findAttachments(caller, chatId, [attachmentId]) : [];
      if (!row) throw attachmentNotFound();
      const object = await bucket().get(row.storageKey);
      return { object: { ...object, contentType: row.contentType }, fileName: row.name };
    },

    /** Removes an upload no message uses yet (409 once a message refers to it). */
    async deleteAttachment(caller: ChatCaller, chatId: string, attachmentId: string): Promise<void> {
      await ownChat(caller, chatId);
      const result = isId(attachmentId)
        ? await store.deleteUnsentAttachment(caller, chatId, attachmentId)
        : undefined;
      if (!result) throw attachmentNotFound();
      if (result === 'referenced') {
        throw attachmentSent();
      }
      await deleteObjects([result.storageKey]);
    },

    /** Purges chats deleted before `before` (default: past the restore window), with their files. */
    async purgeDeleted(before = new Date(Date.now() - CHAT_RESTORE_WINDOW_MS - 5_000)): Promise<number> {
      let purged = 0;
      for (;;) {
        const batch = await store.purgeDeleted(before);
        purged += batch.chats;
        await deleteObjects(batch.storageKeys);
        if (batch.chats === 0) return purged;
      }
    },

    /**
     * Purges drafts (no title, no message) and visitors' chats without a message made before
     * `before` (default: DRAFT_CHAT_TTL_MS ago), with their files.
     */
    async purgeDrafts(before = new Date(Date.now() - DRAFT_CHAT_TTL_MS)): Promise<number> {
      let purged = 0;
      for (;;) {
        const batch = await store.purgeDrafts(before);
        purged += batch.chats;
        await deleteObjects(batch.storageKeys);
        if (batch.chats === 0) return purged;
      }
    },
  };
}

export type ChatsService = ReturnType<typeof chatsService>;

/** A file name kept as metadata: no path, no control characters, at most 200 characters. */
function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(0, 200);
}
