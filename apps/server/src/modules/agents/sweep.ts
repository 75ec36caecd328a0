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
    s.hub.publish(m.userId, {
      type: 'message.done',
      chatId: m.chatId,
      messageId: m.messageId,
      status: 'error',
      finishReason: 'error',
      usage: null,
      error: { code: 'UNAVAILABLE', message: INTERRUPTED_MESSAGE },
    });
  }
}
