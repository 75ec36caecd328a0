import type { KnowledgeEvent, KnowledgeStreamEvent } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { subscribeLive } from '../../lib/bus.ts';
import type { EventStream } from '../../lib/sse.ts';
import type { DocumentRow, SourceRow } from './store.ts';

/** Bus channel of one domain's knowledge events: its Admins' streams on every replica listen to it. */
const knowledgeChannel = (domainId: string) => `knowledge.domain.${domainId}`;

type Publisher = Pick<AppContext, 'bus' | 'log'>;

/**
 * Tells the domain's Admins' screens what changed. Never throws and never waits: a lost event
 * costs a screen one stale line until its next (re)connect, which reads everything again; the
 * change it tells of has already been stored.
 */
function publishKnowledge(ctx: Publisher, domainId: string, event: KnowledgeEvent): void {
  ctx.bus.publish(knowledgeChannel(domainId), event).catch((err: unknown) => {
    ctx.log.warn({ err, type: event.type }, 'knowledge: could not publish an event');
  });
}

/** A source's sync state, from the row the change wrote (returned by the UPDATE itself). */
export function publishSource(
  ctx: Publisher,
  row: Pick<SourceRow, 'id' | 'domainId' | 'status' | 'progress' | 'error'> &
    Partial<Pick<SourceRow, 'errorReason'>>,
): void {
  publishKnowledge(ctx, row.domainId, {
    type: 'source',
    sourceId: row.id,
    status: row.status,
    ...(row.status === 'syncing' && row.progress ? { progress: row.progress } : {}),
    ...(row.status === 'error' && row.error ? { error: row.error } : {}),
    ...(row.status === 'error' && row.errorReason ? { errorReason: row.errorReason } : {}),
  });
}

/** A document's indexing state: what the change set, with the ids it was made on. */
export function publishDocument(
  ctx: Publisher,
  doc: Pick<DocumentRow, 'id' | 'domainId' | 'sourceId' | 'status'> &
    Partial<Pick<DocumentRow, 'chunks' | 'error' | 'errorReason'>>,
): void {
  publishKnowledge(ctx, doc.domainId, {
    type: 'document',
    sourceId: doc.sourceId,
    documentId: doc.id,
    status: doc.status,
    ...(doc.status === 'ready' && doc.chunks !== undefined ? { chunks: doc.chunks } : {}),
    ...(doc.status === 'error' && doc.error ? { error: doc.error } : {}),
    ...(doc.status === 'error' && doc.errorReason ? { errorReason: doc.errorReason } : {}),
  });
}

export function publishDocumentRemoved(
  ctx: Publisher,
  doc: Pick<DocumentRow, 'id' | 'domainId' | 'sourceId'>,
): void {
  publishKnowledge(ctx, doc.domainId, {
    type: 'document.removed',
    sourceId: doc.sourceId,
    documentId: doc.id,
  });
}

export function publishSourceRemoved(ctx: Publisher, domainId: string, sourceId: string): void {
  publishKnowledge(ctx, domainId, { type: 'source.removed', sourceId });
}

/**
 * Forwards a domain's knowledge events to one stream until it ends. `ready` goes first, once the
 * bus subscription delivers: whatever the client reads after it, no change made since is missed.
 */
export function forwardKnowledge(ctx: Pick<AppContext, 'bus'>, domainId: string, stream: EventStream): void {
  const sub = subscribeLive(ctx.bus, knowledgeChannel(domainId), (message) => {
    const event = message as KnowledgeEvent;
    stream.send(event.type, event);
  });
  stream.onEnd(sub.unsubscribe);
  void sub.live.then(() => stream.send('ready', { type: 'ready' } satisfies KnowledgeStreamEvent));
}
