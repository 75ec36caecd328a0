import type { ChatSendFrame } from '@assistente/contracts';
import type { Caller } from '../../lib/caller.ts';
import { type ChatCaller, mayAttach } from '../chats/index.ts';
import { invalidSocketToken, noAttachments } from './errors.ts';

/**
 * Who may hold an agents websocket (docs/ARCHITECTURE.md#callers): people and embeds' visitors, who
 * own chats. An API key has none, and is refused as an invalid token.
 */
export function socketCaller(caller: Caller): ChatCaller {
  if (caller.kind === 'apiKey') throw invalidSocketToken();
  return caller;
}

/** Files on a sent or edited message: refused when the caller's embed takes none. */
export function authorizeFrameAttachments(
  caller: ChatCaller,
  frame: { attachments?: readonly unknown[] },
): void {
  if (frame.attachments?.length && !mayAttach(caller)) throw noAttachments();
}

/**
 * The send as the caller may make it: a visitor always talks to their embed's santito (or the
 * domain's default model) with the embed's parameters, whatever the frame names.
 */
export function sendAsAllowed(caller: ChatCaller, frame: ChatSendFrame): ChatSendFrame {
  if (caller.kind !== 'visitor') return frame;
  const { params: _ignored, agentId: _chosen, ...rest } = frame;
  return { ...rest, agentId: caller.virtualAccount.agentId };
}
