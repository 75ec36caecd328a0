import type { AnswerError, MessagePart } from '@assistente/contracts';
import { STALE_AFTER_MS } from './heartbeat.ts';
import { INTERRUPTED_MESSAGE } from './model-calls.ts';
import type { AgentsState } from './state.ts';

/**
 * How often the agents module's `agents.stale-answers` job sweeps (its manifest, index.ts): a
 * surviving replica ends a crashed one's answers within STALE_AFTER_MS plus this, 40 s, and their
 * users' slots are free by then (heartbeat.ts).
 */
export const SWEEP_EVERY_MS = 10_000;

/** Ends answers whose process died: the `agents.stale-answers` job (index.ts). */
export async function sweepStale(s: AgentsState): Promise<void> {
  const before = s.sweptAtStart ? new Date(Date.now() - STALE_AFTER_MS) : new Date();
  s.sweptAtStart = true;
  const swept = await s.chats.sweepStaleAnswers(before, INTERRUPTED_MESSAGE);
  for (const m of swept) {
    if (s.registry.all().some((g) => g.messageId === m.messageId)) continue;
    endedInError(s, m, { code: 'UNAVAILABLE', message: INTERRUPTED_MESSAGE });
  }
}

/** Tells the owner's sockets an answer the sweep ended is over. */
function endedInError(
  s: AgentsState,
  m: { userId: string; chatId: string; messageId: string },
  error: AnswerError,
): void {
  s.hub.publish(m.userId, {
    type: 'message.done',
    chatId: m.chatId,
    messageId: m.messageId,
    status: 'error',
    finishReason: 'error',
    usage: null,
    error,
  });
}

/** How long an answer waits for a tool call to be allowed before it is denied. */
export const APPROVAL_WAIT_MS = 24 * 60 * 60 * 1000;
export const EXPIRED_APPROVAL = 'No one allowed the tool call within 24 hours.';

/** Ends answers paused on an approval for longer than APPROVAL_WAIT_MS (any replica; each once). */
export async function denyExpiredApprovals(s: AgentsState, now = Date.now()): Promise<void> {
  const expired = await s.chats.awaitingAnswers(new Date(now - APPROVAL_WAIT_MS));
  for (const m of expired) {
    const parts: MessagePart[] = (m.parts ?? []).map((p) =>
      p.type === 'tool' && p.status === 'awaiting_approval'
        ? { ...p, status: 'denied', output: EXPIRED_APPROVAL }
        : p,
    );
    const error = { code: 'CONFLICT' as const, message: EXPIRED_APPROVAL };
    if (!(await s.chats.endAwaitingAnswer(m.messageId, parts, error))) continue;
    endedInError(s, m, error);
  }
}
