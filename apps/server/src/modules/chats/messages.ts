import { randomUUID } from 'node:crypto';
import {
  AttachmentLimits,
  type ChatParams,
  type Message,
  type MessageListQuery,
} from '@assistente/contracts';
import { invalidField } from '../../lib/errors.ts';
import { type MessageRow, toMessage } from './dto.ts';
import { messageNotFound, noSuchParent } from './errors.ts';
import type { ChatCaller } from './policy.ts';
import { type NewMessage, toRow } from './rows.ts';
import { type ChatsState, isId, ownChat, tick, withFiles } from './state.ts';
import type { ContextRow, ExchangeChat } from './store.ts';

/** Longest user message accepted. */
const MAX_MESSAGE_CHARS = 100_000;

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

/** One message of the caller's chat (404 otherwise): the target of regenerate and edit. */
export async function getMessageForCaller(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  messageId: string,
): Promise<Message> {
  await ownChat(s, caller, chatId);
  const row = isId(messageId) ? await s.store.findMessage(caller, chatId, messageId) : undefined;
  if (!row) throw messageNotFound();
  return (await withFiles(s, caller, chatId, [row]))[0]!;
}

export async function listMessages(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  query: MessageListQuery,
): Promise<{ items: Message[]; nextCursor?: string }> {
  await ownChat(s, caller, chatId);
  let before: MessageRow | undefined;
  if (query.before !== undefined) {
    before = await s.store.findMessage(caller, chatId, query.before);
    if (!before) throw invalidField('before', 'No such message in this chat');
  }
  const page = await s.store.listMessages(caller, chatId, {
    limit: query.limit,
    ...(before ? { before } : {}),
  });
  return {
    items: await withFiles(s, caller, chatId, page.items),
    ...(page.nextBefore ? { nextCursor: page.nextBefore } : {}),
  };
}

/**
 * Checks the caller's message and answers it as it will be stored (by `commitExchange`, with
 * its answer). `parentId`: omitted → after the newest message of the chat; null → a new root
 * (editing the first message); an id → after that message of this chat (edit-and-resend makes a
 * sibling branch). Attachments must have been uploaded to this chat by the caller. Bad input →
 * 400; not their chat → 404. `forModel`: the branch it follows comes back too, for the model's
 * context; the chat is `new` (stored with this message, see `newChat`), or was `loaded` as the
 * caller's just before.
 */
export async function prepareUserMessage(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  input: { content: string; parentId?: string | null; attachmentIds?: string[] },
  forModel?: 'new' | 'loaded',
): Promise<PreparedUserMessage> {
  if (!forModel) await ownChat(s, caller, chatId);
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
    branch = await s.store.streamBranchTo(chatId, input.parentId ?? null);
    if (input.parentId !== undefined && branch.length === 0) throw noSuchParent();
    parentId = branch.at(-1)?.id ?? null;
  } else if (input.parentId === undefined) {
    parentId = (await s.store.latestMessage(caller, chatId))?.id ?? null;
  } else if (input.parentId === null) {
    parentId = null;
  } else {
    const parent = isId(input.parentId)
      ? await s.store.findMessage(caller, chatId, input.parentId)
      : undefined;
    if (!parent) throw noSuchParent();
    parentId = parent.id;
  }
  const files = await s.store.findAttachments(
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
}

/**
 * A new chat as it will be stored with its first exchange (see `commitExchange`): nothing is
 * stored before the first message is, so a send that fails leaves no empty chat behind.
 * `agentId` must have been checked as a santito the caller may use.
 */
export function newChat(
  caller: ChatCaller,
  input: { agentId: string | null; params: ChatParams; title: string },
): Extract<ExchangeChat, { kind: 'create' }> {
  return { kind: 'create', owner: caller, id: randomUUID(), ...input };
}

/** The branch root → `leafMessageId` of a chat: the model's context. */
export async function listMessagesForContext(
  s: ChatsState,
  chatId: string,
  leafMessageId: string,
): Promise<ContextMessage[]> {
  return toContext(await s.store.streamBranchTo(chatId, leafMessageId));
}
