import type { Message } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { cursorsFor } from '../../lib/paging.ts';
import { deleteStored } from '../storage/index.ts';
import { type AnswersStore, answersStore } from './answers-store.ts';
import { type MessageRow, toMessage } from './dto.ts';
import { chatNotFound } from './errors.ts';
import { type OwnerStore, ownerStore } from './owner-store.ts';
import type { ChatCaller } from './policy.ts';
import { type SharesStore, sharesStore } from './shares-store.ts';
import { type ChatsStore, chatsStore } from './store.ts';

/**
 * What every operation of the chats module shares (docs/ARCHITECTURE.md#service-style): the
 * context, its SQL and the list's cursor codec. Operations take it first, then the caller.
 */
export interface ChatsState {
  readonly ctx: AppContext;
  readonly store: ChatsStore;
  /** The streaming answers' writes (the generation worker's hot path). */
  readonly answers: AnswersStore;
  /** Share links and the domains' sharing settings (shares.ts). */
  readonly shares: SharesStore;
  /** A person's chats as a whole, for their export and erasure (owner-data.ts). */
  readonly owner: OwnerStore;
  readonly cursors: ReturnType<typeof cursorsFor>;
}

export function createChatsState(ctx: AppContext): ChatsState {
  return {
    ctx,
    store: chatsStore(ctx.db),
    answers: answersStore(ctx.db),
    shares: sharesStore(ctx.db),
    owner: ownerStore(ctx.db),
    cursors: cursorsFor(ctx.config),
  };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isId = (id: string) => UUID_RE.test(id);

let lastTick = 0;
/**
 * Strictly increasing timestamps (ms) within the process, so messages written in one burst keep
 * their order and the list's keyset cursor never sees two rows of one user at the same instant.
 */
export function tick(): Date {
  lastTick = Math.max(Date.now(), lastTick + 1);
  return new Date(lastTick);
}

/** The caller's own live chat, or 404 "Chat not found". */
export async function ownChat(s: ChatsState, caller: ChatCaller, chatId: string) {
  if (!isId(chatId)) throw chatNotFound();
  const row = await s.store.findChat(caller, chatId);
  if (!row) throw chatNotFound();
  return row;
}

/** Messages with their attachments' metadata. */
export async function withFiles(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  rows: MessageRow[],
): Promise<Message[]> {
  const files = await s.store.attachmentsOf(caller, chatId, rows);
  return rows.map((r) => toMessage(r, files));
}

export const deleteObjects = (s: ChatsState, keys: readonly string[]) => deleteStored(s.ctx, 'chats', keys);
