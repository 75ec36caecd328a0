import type { ChatCreate, ChatUpdate } from '@assistente/contracts';
import type { CallerOf } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';

/**
 * Who owns chats (docs/ARCHITECTURE.md#callers): a signed-in person, or a visitor of an embed.
 * API keys have no chats.
 */
export type ChatCaller = CallerOf<'user' | 'visitor'>;

/**
 * The user row whose chats the caller reads and writes: a person's own; a visitor's stored row
 * (type `visitor`), so a visitor reaches their own chats only, and anything else answers 404.
 */
export function chatOwnerId(caller: ChatCaller): string {
  switch (caller.kind) {
    case 'user':
      return caller.user.id;
    case 'visitor':
      return caller.user.id;
  }
}

/**
 * The santito a new chat talks to: the one asked for by a person; a visitor always talks to their
 * embed's santito (or the domain's default), whatever the body names.
 */
export function newChatAgent(caller: ChatCaller, asked: ChatCreate['agentId']): string | null {
  return caller.kind === 'visitor' ? caller.virtualAccount.agentId : (asked ?? null);
}

/** Model and parameters are the embed's choice, not its visitors': a visitor may rename and pin only. */
export function authorizeUpdate(caller: ChatCaller, body: ChatUpdate): void {
  if (caller.kind === 'visitor' && body.params !== undefined) {
    throw forbidden('Visitors cannot change a chat’s parameters');
  }
}

/** Whether the caller may attach files: a person always, a visitor when their embed allows it. */
export function mayAttach(caller: ChatCaller): boolean {
  return caller.kind === 'user' || caller.virtualAccount.allowAttachments;
}

/** As `mayAttach`, refusing with 403 FORBIDDEN. */
export function authorizeAttach(caller: ChatCaller): void {
  if (!mayAttach(caller)) throw forbidden('This chat does not take attachments');
}
