import type { KnowledgeDocument, KnowledgeEvent, KnowledgeSource } from '@assistente/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { knowledgeKeys } from '../keys.ts';

/** A source as an event leaves it; the same object when the event is about another one. */
function patchSource(source: KnowledgeSource, event: Extract<KnowledgeEvent, { type: 'source' }>) {
  const { progress: _progress, error: _error, errorReason: _reason, ...rest } = source;
  const progress = event.progress ?? (event.status === 'syncing' ? source.progress : undefined);
  // A sync that starts keeps showing the last one's error until it ends.
  const failed = event.status === 'error' ? event : event.status === 'syncing' ? source : undefined;
  return {
    ...rest,
    status: event.status,
    ...(progress ? { progress } : {}),
    ...(failed?.error ? { error: failed.error } : {}),
    ...(failed?.error && failed.errorReason ? { errorReason: failed.errorReason } : {}),
  };
}

/**
 * The sources list after `event`. `known`: the event was about a source of the list (or about
 * none); a source the list lacks was created since it was read, so the list must be read again.
 */
export function patchSources(
  list: KnowledgeSource[],
  event: KnowledgeEvent,
): { list: KnowledgeSource[]; known: boolean } {
  switch (event.type) {
    case 'source': {
      const at = list.findIndex((s) => s.sourceId === event.sourceId);
      if (at < 0) return { list, known: false };
      return { list: list.map((s, i) => (i === at ? patchSource(s, event) : s)), known: true };
    }
    case 'source.removed':
      return { list: list.filter((s) => s.sourceId !== event.sourceId), known: true };
    default:
      return { list, known: true };
  }
}

/**
 * A source's documents after `event`; `known` as for `patchSources` (a document the list lacks
 * was added since: its title and address come with a new read).
 */
export function patchDocuments(
  sourceId: string,
  docs: KnowledgeDocument[],
  event: KnowledgeEvent,
): { docs: KnowledgeDocument[]; known: boolean } {
  if (event.type === 'document.removed' && event.sourceId === sourceId) {
    return { docs: docs.filter((d) => d.documentId !== event.documentId), known: true };
  }
  if (event.type !== 'document' || event.sourceId !== sourceId) return { docs, known: true };
  const at = docs.findIndex((d) => d.documentId === event.documentId);
  if (at < 0) return { docs, known: false };
  const patched = docs.map((d, i) => {
    if (i !== at) return d;
    const { error: _error, errorReason: _reason, ...rest } = d;
    return {
      ...rest,
      status: event.status,
      chunks: event.chunks ?? d.chunks,
      ...(event.status === 'error' && event.error ? { error: event.error } : {}),
      ...(event.status === 'error' && event.errorReason ? { errorReason: event.errorReason } : {}),
    };
  });
  return { docs: patched, known: true };
}

/**
 * The events this page received, numbered. A read of the sources or documents notes where the
 * journal stood when it started and replays what came after onto its answer: the answer may
 * have been read before a change the screen was already told of, and must not undo it.
 */
export class EventJournal {
  private seq = 0;
  private readonly entries: Array<{ seq: number; event: KnowledgeEvent }> = [];

  constructor(private readonly keep = 2_000) {}

  mark(): number {
    return this.seq;
  }

  add(event: KnowledgeEvent): void {
    this.entries.push({ seq: ++this.seq, event });
    if (this.entries.length > this.keep) this.entries.splice(0, this.entries.length - this.keep);
  }

  since(mark: number): KnowledgeEvent[] {
    return this.entries.filter((e) => e.seq > mark).map((e) => e.event);
  }

  /**
   * `list` as read, with the events since `mark` applied. `complete` is false when one of them
   * names a source the answer lacks: it was read before that source was stored, so read again.
   */
  replaySources(list: KnowledgeSource[], mark: number): { list: KnowledgeSource[]; complete: boolean } {
    let complete = true;
    const replayed = this.since(mark).reduce((l, e) => {
      const patched = patchSources(l, e);
      complete &&= patched.known;
      return patched.list;
    }, list);
    return { list: replayed, complete };
  }

  /** As `replaySources`, for one source's documents (a sync adding pages while they are read). */
  replayDocuments(
    sourceId: string,
    docs: KnowledgeDocument[],
    mark: number,
  ): { docs: KnowledgeDocument[]; complete: boolean } {
    let complete = true;
    const replayed = this.since(mark).reduce((d, e) => {
      const patched = patchDocuments(sourceId, d, e);
      complete &&= patched.known;
      return patched.docs;
    }, docs);
    return { docs: replayed, complete };
  }
}

/** What must be read again after an event; each call may be coalesced with others close to it. */
export interface Refresh {
  /** The sources list (a new source, or counts after a sync or a document ends). */
  sources(): void;
  /** One source's documents (a document added since they were read). */
  documents(sourceId: string): void;
  /** The santito editor's list of sources. */
  choices(): void;
}

/**
 * Refreshes coalesced: each kind is read again `delayMs` after the first call asking for it, so a
 * burst of events (a sync indexing page after page) costs one read, not one per event.
 */
export function coalescedRefresh(client: QueryClient, delayMs = 300): Refresh & { cancel(): void } {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const schedule = (key: string, run: () => void) => {
    if (timers.has(key)) return;
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        run();
      }, delayMs),
    );
  };
  return {
    sources: () =>
      schedule('sources', () => void client.invalidateQueries({ queryKey: knowledgeKeys.list, exact: true })),
    documents: (id) =>
      schedule(
        `documents:${id}`,
        () => void client.invalidateQueries({ queryKey: knowledgeKeys.documents(id) }),
      ),
    choices: () =>
      schedule('choices', () => void client.invalidateQueries({ queryKey: knowledgeKeys.choices })),
    cancel: () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

/**
 * Patches the cached sources and documents with one event, and asks for the reads it cannot
 * stand in for: a source or document the cache lacks, and the counts once a sync or a document
 * ends (events carry no counts).
 */
export function applyKnowledgeEvent(
  client: QueryClient,
  journal: EventJournal,
  refresh: Refresh,
  event: KnowledgeEvent,
): void {
  journal.add(event);
  const list = client.getQueryData<KnowledgeSource[]>(knowledgeKeys.list);
  if (list) {
    const patched = patchSources(list, event);
    if (!patched.known) {
      // A new source: the santito editor offers it too.
      refresh.sources();
      refresh.choices();
    } else if (patched.list !== list) client.setQueryData(knowledgeKeys.list, patched.list);
  }
  switch (event.type) {
    case 'source':
      // A sync ended: what it indexed or removed shows in the counts.
      if (event.status !== 'syncing') refresh.sources();
      return;
    case 'source.removed':
      client.removeQueries({ queryKey: knowledgeKeys.documents(event.sourceId) });
      refresh.choices();
      return;
    case 'document':
    case 'document.removed': {
      const key = knowledgeKeys.documents(event.sourceId);
      const docs = client.getQueryData<KnowledgeDocument[]>(key);
      if (docs) {
        const patched = patchDocuments(event.sourceId, docs, event);
        if (!patched.known) refresh.documents(event.sourceId);
        else if (patched.docs !== docs) client.setQueryData(key, patched.docs);
      }
      // Queued, started, done or gone: the source's counts (its documents indexing too) change.
      refresh.sources();
      return;
    }
  }
}
