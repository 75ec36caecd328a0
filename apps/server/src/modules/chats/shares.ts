import { randomUUID } from 'node:crypto';
import type {
  Attachment,
  Message,
  MessagePart,
  Share,
  ShareCopy,
  ShareCreate,
  SharedChat,
  ShareListQuery,
  ShareOptions,
  SharingSettings,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { AppError, forbidden, invalidField, notFound } from '../../lib/errors.ts';
import type { Page } from '../../lib/paging.ts';
import { randomBase64url } from '../../lib/random-id.ts';
import { standingById } from '../accounts/directory.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { type AuditMeta, auditedTransaction, recordAudit } from '../audit/index.ts';
import { copyStored, type StoredObject } from '../storage/index.ts';
import type { AttachmentRow, MessageRow } from './dto.ts';
import { attachmentNotFound, messageNotFound } from './errors.ts';
import { currentBranch } from './export.ts';
import { mayReadShare, sharesPolicy } from './policy.ts';
import { SHARE_CURSOR_TAG, type ShareListRow, type ShareRow } from './shares-store.ts';
import { type ChatsState, ownChat, tick, withFiles } from './state.ts';

/** Share ids are 16 random bytes, base64url: 22 characters (ShareIdSchema). */
const SHARE_ID_BYTES = 16;
const SHARE_ID_RE = /^[A-Za-z0-9_-]{22}$/;

/** The same answer for unknown, revoked, expired, deleted and "not for you": existence is never revealed. */
export const shareNotFound = () => notFound('Share link not found');
export const nothingToShare = () =>
  new AppError('CONFLICT', 'This chat has no finished message to share yet');
export const publicLinksNotAllowed = () =>
  forbidden('Your organisation does not allow public links; share with your organisation or department');

/** Answers that are over: an answer still being written, or waiting on a tool call, is not shared. */
const finished = (m: Message) => m.status !== 'streaming' && m.status !== 'awaiting_approval';

export const shareUrl = (s: ChatsState, id: string) => `${s.ctx.config.publicUrl}/s/${id}`;
const fileUrl = (shareId: string, attachmentId: string) => `/api/v1/shares/${shareId}/files/${attachmentId}`;
const bucket = (s: ChatsState) => s.ctx.services.storage.bucket('chats');

function toShare(s: ChatsState, row: ShareListRow | ShareRow): Share {
  return {
    shareId: row.id,
    url: shareUrl(s, row.id),
    chatId: row.chatId,
    title: row.title,
    audience: row.audience,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    views: row.views,
    messageCount: 'messageCount' in row ? row.messageCount : row.messages.length,
  };
}

/** The files a snapshot holds, by id: those sent with questions and those tools made. */
function snapshotFileIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    for (const a of m.attachments ?? []) ids.add(a.attachmentId);
    for (const p of m.parts ?? [])
      if (p.type === 'tool') for (const f of p.files ?? []) ids.add(f.attachmentId);
  }
  return ids;
}

/** A message with each of its files (attachments and tools' files) passed through `map`. */
function mapFiles(m: Message, map: (a: Attachment) => Attachment): Message {
  return {
    ...m,
    ...(m.attachments ? { attachments: m.attachments.map(map) } : {}),
    ...(m.parts
      ? {
          parts: m.parts.map(
            (p): MessagePart => (p.type === 'tool' && p.files ? { ...p, files: p.files.map(map) } : p),
          ),
        }
      : {}),
  };
}

/**
 * Shares the caller's chat (docs/ARCHITECTURE.md#share-links): a snapshot of the branch ending at
 * `leaf` (default: the newest message's), its finished messages only, stored with the link so
 * later edits of the chat do not change it. 404 unless the caller's own live chat; 409 with nothing
 * to share; 400 for an expiry not in the future; 403 for `public` where the domain does not allow it.
 */
export async function createShare(
  s: ChatsState,
  caller: UserCaller,
  chatId: string,
  body: ShareCreate,
  meta: AuditMeta,
): Promise<Share> {
  const chat = await ownChat(s, caller, chatId);
  const now = new Date();
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw invalidField('expiresAt', 'The expiry must be in the future');
  if (body.audience === 'public' && !(await s.shares.publicLinks(caller.domain.id))) {
    throw publicLinksNotAllowed();
  }
  const rows = await s.store.allMessages(caller, chatId);
  if (body.leaf !== undefined && !rows.some((r) => r.id === body.leaf)) throw messageNotFound();
  const branch = currentBranch(await withFiles(s, caller, chatId, rows), body.leaf);
  // The branch is a chain: it ends before its first unfinished message (the answer being written).
  const cut = branch.findIndex((m) => !finished(m));
  const messages = cut === -1 ? branch : branch.slice(0, cut);
  if (messages.length === 0) throw nothingToShare();
  const santito = chat.agentId ? await s.ctx.services.santitos.findUsable(caller, chat.agentId) : undefined;
  const id = randomBase64url(SHARE_ID_BYTES);
  const row = await auditedTransaction(
    s.ctx.db,
    caller,
    meta,
    (tx) => tx,
    async (tx) => {
      const inserted = await s.shares.insert(tx, {
        id,
        chatId,
        userId: caller.user.id,
        domainId: caller.domain.id,
        departmentId: caller.user.departmentId,
        audience: body.audience,
        title: chat.title,
        santitoName: santito?.name ?? null,
        messages,
        expiresAt,
        createdAt: now,
      });
      return {
        result: inserted,
        audit: {
          action: 'share.create',
          targetType: 'share',
          targetId: id,
          domainId: caller.domain.id,
          after: { audience: body.audience, chatId, ...(expiresAt ? { expiresAt } : {}) },
        },
      };
    },
  );
  return toShare(s, row);
}

/** The caller's own links, newest first. */
export async function listShares(
  s: ChatsState,
  caller: UserCaller,
  query: ShareListQuery,
): Promise<Page<Share>> {
  const after = s.cursors.parse(SHARE_CURSOR_TAG, query.cursor, 2);
  const page = await s.shares.listOwn(caller.user.id, { limit: query.limit, ...(after ? { after } : {}) });
  return s.cursors.page(SHARE_CURSOR_TAG, page, (row) => toShare(s, row));
}

/** Removes a link at once: its owner, or an Admin of its domain; 404 for anyone else. */
export async function revokeShare(
  s: ChatsState,
  caller: UserCaller,
  shareId: string,
  meta: AuditMeta,
): Promise<void> {
  const row = SHARE_ID_RE.test(shareId) ? await s.shares.find(shareId) : undefined;
  if (!row || !sharesPolicy.can(caller, 'revoke', { userId: row.userId, domain: row.domainId })) {
    throw shareNotFound();
  }
  await s.ctx.db.transaction(async (tx) => {
    await s.shares.delete(tx, shareId);
    await recordAudit(tx, caller, meta, {
      action: 'share.revoke',
      targetType: 'share',
      targetId: shareId,
      domainId: row.domainId,
      before: { audience: row.audience, chatId: row.chatId },
    });
  });
}

/**
 * A live link `reader` may read (`mayReadShare`), with its owner's name; 404 otherwise, whatever
 * the reason. A link whose owner (or their organisation) can no longer act is gone too.
 */
async function readable(s: ChatsState, reader: UserCaller | null, shareId: string) {
  if (!SHARE_ID_RE.test(shareId)) throw shareNotFound();
  const open = await s.shares.openShare(shareId, new Date());
  if (!open || !mayReadShare(reader, open.share, open.publicLinks)) throw shareNotFound();
  const owner = await standingById(s.ctx.db, open.share.userId);
  if (!owner?.active || !owner.domainActive) throw shareNotFound();
  return { ...open, owner };
}

/** A link as its reader sees it; a read by anyone but its owner counts as a view. */
export async function readShare(
  s: ChatsState,
  reader: UserCaller | null,
  shareId: string,
): Promise<SharedChat> {
  const { share, owner } = await readable(s, reader, shareId);
  const own = reader?.user.id === share.userId;
  if (!own) await s.shares.countView(share.id);
  return {
    shareId: share.id,
    title: share.title,
    audience: share.audience,
    createdAt: share.createdAt.toISOString(),
    expiresAt: share.expiresAt?.toISOString() ?? null,
    sharedBy: owner.displayName,
    santitoName: share.santitoName,
    // Files are read through the link: the chat's own addresses answer its owner only.
    messages: share.messages.map((m) =>
      mapFiles(m, (a) => ({ ...a, url: fileUrl(share.id, a.attachmentId) })),
    ),
    own,
  };
}

/** A file of a link's snapshot (and only of it), for whoever may read the link. */
export async function openShareFile(
  s: ChatsState,
  reader: UserCaller | null,
  shareId: string,
  attachmentId: string,
): Promise<{ object: StoredObject; fileName: string }> {
  const { share } = await readable(s, reader, shareId);
  if (!snapshotFileIds(share.messages).has(attachmentId)) throw attachmentNotFound();
  const [row] = await s.shares.chatAttachments(share.chatId, [attachmentId]);
  if (!row) throw attachmentNotFound();
  const object = await bucket(s).get(row.storageKey);
  return { object: { ...object, contentType: row.contentType }, fileName: row.name };
}

/**
 * Continues a link as a chat of the reader's own: the snapshot's messages under new ids (the
 * parent chain kept, stamped now), its files copied into the new chat and counted against the
 * reader's domain (402 when they do not fit). The santito stays when the reader's domain is the
 * owner's and they may still use it; otherwise the copy talks to the domain's assistant.
 */
export async function copyShare(s: ChatsState, reader: UserCaller, shareId: string): Promise<ShareCopy> {
  const { share, agentId } = await readable(s, reader, shareId);
  const santito =
    agentId && reader.domain.id === share.domainId
      ? await s.ctx.services.santitos.findUsable(reader, agentId)
      : undefined;
  const fileIds = [...snapshotFileIds(share.messages)];
  const files = await s.shares.chatAttachments(share.chatId, fileIds);
  const chatId = randomUUID();
  const created = tick();
  await copyStored(s.ctx, {
    bucket: 'chats',
    domainId: reader.domain.id,
    sources: files.map((f) => ({ key: f.storageKey, contentType: f.contentType, size: f.size })),
    record: async (tx, stored) => {
      // Each file of the snapshot → its copy in the new chat (a file missing from storage is left out).
      const byOld = new Map<string, AttachmentRow>();
      files.forEach((f, i) => {
        const copy = stored[i];
        if (!copy) return;
        byOld.set(f.id, {
          id: randomUUID(),
          chatId,
          userId: reader.user.id,
          domainId: reader.domain.id,
          name: f.name,
          contentType: copy.contentType,
          size: copy.size,
          storageKey: copy.key,
          createdAt: created,
          removedAt: null,
        });
      });
      const newIds = new Map(share.messages.map((m) => [m.messageId, randomUUID()]));
      const messages = share.messages.map((m) => copiedMessage(m, chatId, newIds, byOld, tick()));
      await s.shares.insertCopy(tx, {
        chat: {
          id: chatId,
          userId: reader.user.id,
          domainId: reader.domain.id,
          agentId: santito?.id ?? null,
          title: share.title,
          createdAt: created,
        },
        files: [...byOld.values()],
        messages,
      });
    },
  });
  return { chatId };
}

/** A snapshot message as a row of the reader's copy: new ids, its files the copies' (or left out). */
function copiedMessage(
  m: Message,
  chatId: string,
  newIds: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, AttachmentRow>,
  at: Date,
): Omit<MessageRow, 'updatedAt'> {
  const fileOf = (a: Attachment): Attachment | undefined => {
    const copy = files.get(a.attachmentId);
    return copy
      ? { ...a, attachmentId: copy.id, chatId, url: `/api/v1/chats/${chatId}/attachments/${copy.id}` }
      : undefined;
  };
  const parts = m.parts?.map(
    (p): MessagePart =>
      p.type === 'tool' && p.files ? { ...p, files: p.files.flatMap((f) => fileOf(f) ?? []) } : p,
  );
  return {
    id: newIds.get(m.messageId)!,
    chatId,
    parentId: m.parentId ? (newIds.get(m.parentId) ?? null) : null,
    role: m.role,
    content: m.content,
    status: m.status,
    model: m.model ?? null,
    // The reader spent nothing on these answers: their usage stays with the original.
    usage: null,
    error: m.error ?? null,
    errorCode: m.errorCode ?? null,
    errorReason: m.errorReason ?? null,
    attachmentIds: (m.attachments ?? []).flatMap((a) => fileOf(a)?.attachmentId ?? []),
    citations: m.citations ?? null,
    attachmentReadings:
      m.attachmentReadings?.flatMap((r) => {
        const copy = files.get(r.attachmentId);
        return copy ? [{ ...r, attachmentId: copy.id }] : [];
      }) ?? null,
    parts: parts ?? null,
    usedMemory: m.usedMemory ?? false,
    createdAt: at,
  };
}

/** What the caller may share: whether their domain allows public links. */
export async function shareOptions(s: ChatsState, caller: UserCaller): Promise<ShareOptions> {
  return { publicLinks: await s.shares.publicLinks(caller.domain.id) };
}

/** The domain an Admin acts on: their own, or any for a SuperAdmin (`?domain=`). */
async function sharingDomain(s: ChatsState, caller: UserCaller, requested?: string): Promise<string> {
  sharesPolicy.authorize(caller, 'manageSettings', caller.domain.id, 'Only Admins manage sharing');
  return existingActingDomain(s.ctx.db, caller, requested);
}

export async function getSharingSettings(
  s: ChatsState,
  caller: UserCaller,
  domain?: string,
): Promise<SharingSettings> {
  return { publicLinks: await s.shares.publicLinks(await sharingDomain(s, caller, domain)) };
}

/**
 * Allows or stops public links. Stopping them takes effect at once: a public link then reads as a
 * link to the domain (signed-in people of the domain only).
 */
export async function putSharingSettings(
  s: ChatsState,
  caller: UserCaller,
  body: SharingSettings,
  meta: AuditMeta,
  domain?: string,
): Promise<SharingSettings> {
  const domainId = await sharingDomain(s, caller, domain);
  const before = await s.shares.publicLinks(domainId);
  await auditedTransaction(
    s.ctx.db,
    caller,
    meta,
    (tx) => tx,
    async (tx) => {
      await s.shares.setPublicLinks(tx, domainId, body.publicLinks);
      return {
        result: undefined,
        audit: {
          action: 'sharing.settings.update',
          targetType: 'domain',
          targetId: domainId,
          domainId,
          before: { publicLinks: before },
          after: { publicLinks: body.publicLinks },
        },
      };
    },
  );
  return { publicLinks: body.publicLinks };
}
