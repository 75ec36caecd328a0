import { randomUUID } from 'node:crypto';
import { buffer as readAll } from 'node:stream/consumers';
import type { Attachment } from '@assistente/contracts';
import { assertRoomLeft, type ReadUpload, type StoredObject, storeUpload } from '../storage/index.ts';
import { toAttachment } from './dto.ts';
import { attachmentNotFound, attachmentSent, chatNotFound } from './errors.ts';
import { authorizeAttach, type ChatCaller } from './policy.ts';
import { type ChatsState, deleteObjects, isId, ownChat } from './state.ts';

/** An attachment's bytes for a model call. */
export interface AttachmentForModel {
  attachmentId: string;
  name: string;
  contentType: string;
  size: number;
  data: Buffer;
}

const bucket = (s: ChatsState) => s.ctx.services.storage.bucket('chats');

/** The bytes of the caller's attachments among `ids`, for models that take files; unknown ids are left out. */
export async function getAttachmentsForModel(
  s: ChatsState,
  caller: ChatCaller,
  ids: readonly string[],
): Promise<AttachmentForModel[]> {
  const rows = await s.store.findOwnAttachments(
    caller,
    ids.filter((id) => isId(id)),
  );
  const out: AttachmentForModel[] = [];
  for (const row of rows) {
    try {
      const object = await bucket(s).get(row.storageKey);
      out.push({
        attachmentId: row.id,
        name: row.name,
        contentType: row.contentType,
        size: row.size,
        data: await readAll(object.body),
      });
    } catch (err) {
      s.ctx.log.warn({ err, attachmentId: row.id }, 'attachment bytes missing from storage');
    }
  }
  return out;
}

/**
 * What a tool that works on files (the code interpreter) reads of a chat and keeps in it: the
 * chat's files (the latest `max`), and a file it made, stored as the person's own upload would be
 * (its type checked, within UPLOAD_MAX_BYTES and the domain's quota).
 */
export function toolFiles(s: ChatsState, caller: ChatCaller, chatId: string) {
  return {
    async inputs(max: number): Promise<AttachmentForModel[]> {
      await ownChat(s, caller, chatId);
      const rows = await s.store.latestAttachments(caller, chatId, max);
      return getAttachmentsForModel(
        s,
        caller,
        rows.map((r) => r.id),
      );
    },
    save(name: string, contentType: string | undefined, data: Buffer): Promise<Attachment> {
      return uploadAttachment(s, caller, chatId, { fileName: name, declaredType: contentType, data });
    },
  };
}

/** Before reading an upload: 404 unless the caller's chat, 402 when the domain has no room left. */
export async function checkUpload(s: ChatsState, caller: ChatCaller, chatId: string): Promise<void> {
  authorizeAttach(caller);
  await ownChat(s, caller, chatId);
  await assertRoomLeft(s.ctx, caller.domain.id);
}

/**
 * Stores an upload in the chats bucket under a generated key. 413 over UPLOAD_MAX_BYTES, 415 for
 * a type not allowed (or bytes that disagree with it), 402 when the domain's quota would be exceeded.
 */
export async function uploadAttachment(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  file: ReadUpload,
): Promise<Attachment> {
  authorizeAttach(caller);
  await ownChat(s, caller, chatId);
  const row = await storeUpload(s.ctx, {
    bucket: 'chats',
    domainId: caller.domain.id,
    file,
    maxBytes: s.ctx.config.UPLOAD_MAX_BYTES,
    record: async (tx, stored) => {
      // The chat may have been deleted while the bytes were stored.
      if (!(await s.store.findChat(caller, chatId, tx))) throw chatNotFound();
      return s.store.insertAttachment(tx, caller, {
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
}

/** An attachment of the caller's chat, ready to stream; 404 when it or its bytes are missing. */
export async function openAttachment(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  attachmentId: string,
): Promise<{ object: StoredObject; fileName: string }> {
  await ownChat(s, caller, chatId);
  const [row] = isId(attachmentId) ? await s.store.findAttachments(caller, chatId, [attachmentId]) : [];
  // Retention deleted its file: the row stays for the message, the bytes are gone.
  if (!row || row.removedAt) throw attachmentNotFound();
  const object = await bucket(s).get(row.storageKey);
  return { object: { ...object, contentType: row.contentType }, fileName: row.name };
}

/** Removes an upload no message uses yet (409 once a message refers to it). */
export async function deleteAttachment(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  attachmentId: string,
): Promise<void> {
  await ownChat(s, caller, chatId);
  const result = isId(attachmentId)
    ? await s.store.deleteUnsentAttachment(caller, chatId, attachmentId)
    : undefined;
  if (!result) throw attachmentNotFound();
  if (result === 'referenced') {
    throw attachmentSent();
  }
  await deleteObjects(s, [result.storageKey]);
}

/** A file name kept as metadata: no path, no control characters, at most 200 characters. */
function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(0, 200);
}
