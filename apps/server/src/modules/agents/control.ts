import type { ChatStopFrame, ChatSubscribeFrame } from '@assistente/contracts';
import { Channels } from '../../context.ts';
import type { AuthInvalidateMessage } from '../../lib/caller.ts';
import type { ChatCaller } from '../chats/index.ts';
import { parseVisitorUid, VIRTUAL_ACCOUNT_CHANGED } from '../embedded/index.ts';
import { type AgentsState, CONTROL_CHANNEL, type ControlMessage, type Reply, stopKey } from './state.ts';

/**
 * Obeys, for the generations running here, what any replica asks (stop, snapshot) and what ends
 * a caller's right to them (an account or an embed turned off). Answers the unsubscribe.
 */
export function listen(s: AgentsState): () => void {
  const unsubscribeControl = s.ctx.bus.subscribe(CONTROL_CHANNEL, (raw) => {
    const msg = raw as Partial<ControlMessage> | undefined;
    if (!msg || typeof msg.userId !== 'string' || typeof msg.chatId !== 'string') return;
    if (msg.op === 'stop') {
      const now = Date.now();
      s.stopsAsked.set(stopKey(msg.userId, msg.chatId), now);
      if (s.stopsAsked.size > 10_000) {
        for (const [k, at] of s.stopsAsked) if (now - at > 60_000) s.stopsAsked.delete(k);
      }
    }
    for (const gen of s.registry.inChat(msg.userId, msg.chatId)) {
      if (msg.op === 'stop') gen.stop();
      else if (msg.op === 'snapshot') {
        s.hub.publish(gen.userId, {
          type: 'message.snapshot',
          chatId: gen.chatId,
          message: {
            ...gen.message,
            content: gen.sentContent,
            status: 'streaming',
            ...(gen.parts.length > 0 ? { parts: gen.parts } : {}),
          },
        });
      }
    }
  });

  // A user deactivated (or whose organisation is) mid-answer stops spending tokens at once.
  const unsubscribeAuth = s.ctx.bus.subscribe(Channels.authInvalidate, (raw) => {
    const msg = (raw ?? {}) as AuthInvalidateMessage;
    const email = msg.email?.toLowerCase();
    const domain = msg.domain?.toLowerCase();
    const hit = s.registry
      .all()
      .filter(
        (g) =>
          msg.all || g.owner.uid === msg.uid || g.userId === email || (domain && g.owner.domain === domain),
      );
    if (hit.length === 0) return;
    // After the caller caches (subscribed earlier) have dropped the account's state.
    setImmediate(() => {
      for (const gen of hit) {
        s.ctx.services.callerStates.isActive(gen.owner.uid).then(
          (active) => {
            if (!active) gen.stop();
          },
          (err: unknown) => s.ctx.log.warn({ err }, 'agents: could not re-check an answer’s owner'),
        );
      }
    });
  });

  // A paused or deleted embed stops its visitors' answers running here: closing their sockets
  // (agents/routes.ts) alone leaves an answer already under way spending the domain's tokens.
  const unsubscribeEmbeds = s.ctx.bus.subscribe(VIRTUAL_ACCOUNT_CHANGED, (raw) => {
    const id = (raw as { virtualAccountId?: unknown } | undefined)?.virtualAccountId;
    if (typeof id !== 'string') return;
    const hit = s.registry.all().filter((g) => parseVisitorUid(g.owner.uid)?.virtualAccountId === id);
    if (hit.length === 0) return;
    // After the visitors' cache (subscribed earlier) has dropped the embed: a rename goes on.
    setImmediate(() => {
      s.ctx.services.visitors.usableEmbed(id).then(
        (usable) => {
          if (!usable) for (const gen of hit) gen.stop();
        },
        (err: unknown) =>
          s.ctx.log.warn({ err, virtualAccountId: id }, 'agents: could not re-check an embed'),
      );
    });
  });

  return () => {
    unsubscribeControl();
    unsubscribeAuth();
    unsubscribeEmbeds();
  };
}

/** `chat.stop`: whichever replica runs the chat's answer stops it (kept as `stopped`). */
export async function stop(s: AgentsState, caller: ChatCaller, frame: ChatStopFrame): Promise<void> {
  await s.chats.getChatForCaller(caller, frame.chatId);
  const msg: ControlMessage = { op: 'stop', userId: caller.user.id, chatId: frame.chatId };
  await s.ctx.bus.publish(CONTROL_CHANNEL, msg);
}

/** `chat.subscribe`: snapshots of the chat's answers in progress, then `chat.subscribed`. */
export async function subscribe(
  s: AgentsState,
  caller: ChatCaller,
  frame: ChatSubscribeFrame,
  reply: Reply,
): Promise<void> {
  await s.chats.getChatForCaller(caller, frame.chatId);
  const msg: ControlMessage = { op: 'snapshot', userId: caller.user.id, chatId: frame.chatId };
  await s.ctx.bus.publish(CONTROL_CHANNEL, msg);
  const streaming = await s.chats.streamingAnswerIds(frame.chatId);
  reply({
    type: 'chat.subscribed',
    ...(frame.requestId ? { requestId: frame.requestId } : {}),
    chatId: frame.chatId,
    streaming,
  });
}
