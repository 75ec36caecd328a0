import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { ATTACHMENTS_REMOVED } from '../chats/index.ts';
import * as control from './control.ts';
import * as sending from './send.ts';
import { createAgentsState } from './state.ts';
import { denyExpiredApprovals, sweepStale } from './sweep.ts';

export type { Reply } from './state.ts';
export { SWEEP_EVERY_MS } from './sweep.ts';

/**
 * The agents service: what each client frame does. It only names the operations
 * (docs/ARCHITECTURE.md#service-style): send.ts (send, regenerate, edit), control.ts (stop,
 * subscribe, and the bus commands every replica obeys), sweep.ts, over the state of state.ts.
 */
export function createAgentsService(ctx: AppContext) {
  const s = createAgentsState(ctx);
  const unlisten = control.listen(s);
  const unmeasure = ctx.metrics.measure('streamingAnswers', () => s.registry.size);
  // Texts read out of files that retention deleted go with them (docs/ARCHITECTURE.md#retention).
  const unforget = ctx.bus.subscribe(ATTACHMENTS_REMOVED, (message) => {
    const ids = (message as { ids?: unknown } | undefined)?.ids;
    if (Array.isArray(ids)) s.registry.forgetFiles(ids.filter((id): id is string => typeof id === 'string'));
  });
  return {
    hub: s.hub,
    registry: s.registry,
    limits: s.limits,
    models: s.models,
    ...withState(s, {
      /** Ends answers whose process died: the `agents.stale-answers` job (index.ts). */
      sweepStale,
      /** `chat.send`: the user message is committed and announced before the answer starts. */
      send: sending.send,
      /** `chat.regenerate`: a new answer to the same question, a sibling of the old one (kept). */
      regenerate: sending.regenerate,
      /** `chat.edit`: a new user message beside the edited one (same parent), then its answer. */
      edit: sending.edit,
      /** `tool.approve`: a paused answer's call allowed or denied; it goes on once all are decided. */
      approve: sending.approve,
      /** Ends answers that waited over 24 h for an approval: the `agents.expired-approvals` job. */
      denyExpiredApprovals,
      /** `chat.stop`: whichever replica runs the chat's answer stops it (kept as `stopped`). */
      stop: control.stop,
      /** `chat.subscribe`: snapshots of the chat's answers in progress, then `chat.subscribed`. */
      subscribe: control.subscribe,
    }),

    /** Stops the generations of this process (stored as interrupted) and the background work. */
    async close(): Promise<void> {
      unlisten();
      unmeasure();
      unforget();
      await s.registry.shutdown();
      await s.models.close();
      s.hub.close();
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
