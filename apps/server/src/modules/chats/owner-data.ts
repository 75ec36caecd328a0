import type { Readable } from 'node:stream';
import type { Locale, ShareAudience } from '@assistente/contracts';
import { toChat, toMessage } from './dto.ts';
import { currentBranch, exportFileName, toJsonExport, toMarkdownExport } from './export.ts';
import { removeDeleted } from './purge.ts';
import { shareUrl } from './shares.ts';
import type { ChatsState } from './state.ts';

/*
 * A person's chats as a whole (docs/ARCHITECTURE.md#export-and-erasure): read for their export,
 * deleted with their files when they are erased. The governance module checks who asks.
 */

/** Chats read per query: a person with thousands of chats is never held whole. */
const PAGE = 50;

/** A file of an exported chat, opened only when the ZIP reaches it. */
export interface OwnerFile {
  attachmentId: string;
  name: string;
  contentType: string;
  size: number;
  storageKey: string;
}

/** One chat, written as the chat's own export writes it (JSON: every message; Markdown: the branch shown). */
export interface OwnerChat {
  /** `<yyyy-mm-dd> <title> <chat id>`, safe as a file name. */
  baseName: string;
  json: string;
  markdown: string;
  messages: number;
  /** Its files still stored (not those retention removed). */
  files: OwnerFile[];
}

/** Who the chats are written for: whose they are, in the reader's language and time zone. */
export interface OwnerExport {
  userId: string;
  locale: Locale;
  timeZone?: string | undefined;
}

/** The person's live chats, oldest first, one page of rows at a time. */
export async function* exportChatsOf(
  s: ChatsState,
  owner: OwnerExport,
  now: Date,
): AsyncGenerator<OwnerChat> {
  const store = s.owner;
  let after: { at: Date; id: string } | undefined;
  for (;;) {
    const page = await store.chatsPage(owner.userId, PAGE, after);
    for (const row of page) {
      const [rows, files] = await Promise.all([store.messagesOf(row.id), store.attachmentsOf(row.id)]);
      const byId = new Map(files.map((f) => [f.id, f]));
      const chat = toChat(row);
      const messages = rows.map((r) => toMessage(r, byId));
      const branch = currentBranch(messages);
      const day = row.createdAt.toISOString().slice(0, 10);
      yield {
        baseName: `${day} ${exportFileName(chat, 'md').slice(0, -3)} ${row.id}`,
        json: `${JSON.stringify(toJsonExport(chat, messages, now, branch.at(-1)?.messageId), null, 2)}\n`,
        markdown: toMarkdownExport(chat, branch, {
          now,
          locale: owner.locale,
          timeZone: owner.timeZone,
          baseUrl: s.ctx.config.publicUrl,
        }),
        messages: rows.length,
        files: files
          .filter((f) => f.removedAt === null)
          .map((f) => ({
            attachmentId: f.id,
            name: f.name,
            contentType: f.contentType,
            size: f.size,
            storageKey: f.storageKey,
          })),
      };
    }
    const last = page.at(-1);
    if (page.length < PAGE || !last) return;
    after = { at: last.createdAt, id: last.id };
  }
}

/** A file's bytes as a stream from the store (local or S3), read as it is sent. */
export async function openOwnerFile(s: ChatsState, file: Pick<OwnerFile, 'storageKey'>): Promise<Readable> {
  return (await s.ctx.services.storage.bucket('chats').get(file.storageKey)).body;
}

/** A person's share link as their export lists it. */
export interface OwnerShare {
  shareId: string;
  chatId: string;
  title: string;
  audience: ShareAudience;
  views: number;
  createdAt: string;
  expiresAt: string | null;
  url: string;
}

/** The person's links of live chats, oldest first. */
export async function sharesOf(s: ChatsState, userId: string): Promise<OwnerShare[]> {
  const rows = await s.owner.sharesOf(userId);
  return rows.map((r) => ({
    shareId: r.id,
    chatId: r.chatId,
    title: r.title,
    audience: r.audience,
    views: r.views,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    url: shareUrl(s, r.id),
  }));
}

/** Chats erased a batch at a time. */
const ERASE_BATCH = 500;

/**
 * Deletes every chat of the person, trashed ones too, with their messages, links and files (local
 * or S3), through the purge of deleted chats (which also has what was read of the files forgotten).
 * Done before their user row goes: its cascade would drop the attachment rows and leave the files.
 */
export async function eraseChatsOf(s: ChatsState, userId: string): Promise<{ chats: number; files: number }> {
  const erased = { chats: 0, files: 0 };
  for (;;) {
    const ids = await s.owner.takeChatsOf(userId, ERASE_BATCH);
    if (ids.length === 0) return erased;
    const done = await removeDeleted(s, ids, () => new Promise<void>((resolve) => setImmediate(resolve)));
    erased.chats += done.chats;
    erased.files += done.files;
    // Restored in between (by the person, still signed in): the next attempt takes it again.
    if (done.chats === 0) return erased;
  }
}
