import type { KnowledgeDocument, KnowledgeEvent, KnowledgeSource } from '@assistente/contracts';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { knowledgeKeys } from '../keys.ts';
import {
  applyKnowledgeEvent,
  coalescedRefresh,
  EventJournal,
  patchDocuments,
  patchSources,
  type Refresh,
} from './liveCache.ts';

const source = (sourceId: string, over: Partial<KnowledgeSource> = {}): KnowledgeSource => ({
  sourceId,
  domain: 'acme.com',
  kind: 'confluence',
  displayName: `Source ${sourceId}`,
  status: 'idle',
  lastSyncAt: null,
  documents: 3,
  chunks: 12,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const doc = (documentId: string, over: Partial<KnowledgeDocument> = {}): KnowledgeDocument => ({
  documentId,
  sourceId: 's1',
  title: `Doc ${documentId}`,
  url: `/docs/${documentId}`,
  status: 'indexing',
  contentType: 'text/markdown',
  size: 10,
  chunks: 0,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

function spyRefresh(): Refresh & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    sources: () => calls.push('sources'),
    documents: (id) => calls.push(`documents:${id}`),
    choices: () => calls.push('choices'),
  };
}

function setup() {
  const client = new QueryClient();
  const journal = new EventJournal();
  const refresh = spyRefresh();
  const apply = (event: KnowledgeEvent) => applyKnowledgeEvent(client, journal, refresh, event);
  return { client, journal, refresh, apply };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('patching the cached sources', () => {
  it('shows a sync start, its progress and its end; an error stays until a sync succeeds', () => {
    let list = [source('s1', { status: 'error', error: 'Token refused' }), source('s2')];
    const step = (e: KnowledgeEvent) => {
      const r = patchSources(list, e);
      expect(r.known).toBe(true);
      list = r.list;
      return list[0];
    };
    // Claimed: no progress until the pages are counted.
    const claimed = step({ type: 'source', sourceId: 's1', status: 'syncing' });
    expect(claimed).toMatchObject({ status: 'syncing', error: 'Token refused' });
    expect(claimed?.progress).toBeUndefined();
    expect(
      step({ type: 'source', sourceId: 's1', status: 'syncing', progress: { done: 0, total: 4 } }),
    ).toMatchObject({ status: 'syncing', progress: { done: 0, total: 4 }, error: 'Token refused' });
    expect(
      step({ type: 'source', sourceId: 's1', status: 'syncing', progress: { done: 2, total: 4 } }),
    ).toMatchObject({ progress: { done: 2, total: 4 } });
    const done = step({ type: 'source', sourceId: 's1', status: 'idle' });
    expect(done).toEqual(source('s1'));
    expect(step({ type: 'source', sourceId: 's1', status: 'error', error: 'Space gone' })).toEqual(
      source('s1', { status: 'error', error: 'Space gone' }),
    );
    // The other source is the same object: nothing of it re-renders.
    expect(list[1]).toBe(list[1]);
  });

  it('drops a removed source, and says when an event is about one it lacks', () => {
    const list = [source('s1'), source('s2')];
    expect(
      patchSources(list, { type: 'source.removed', sourceId: 's1' }).list.map((s) => s.sourceId),
    ).toEqual(['s2']);
    expect(patchSources(list, { type: 'source', sourceId: 's9', status: 'idle' })).toEqual({
      list,
      known: false,
    });
    // Document events leave the list as it is.
    expect(
      patchSources(list, { type: 'document', sourceId: 's1', documentId: 'd1', status: 'ready' }).list,
    ).toBe(list);
  });
});

describe('patching the cached documents', () => {
  it('moves a document through its states, with its chunks once ready and its error when it fails', () => {
    const docs = [doc('d1', { status: 'error', error: 'Unreadable' }), doc('d2')];
    const indexing = patchDocuments('s1', docs, {
      type: 'document',
      sourceId: 's1',
      documentId: 'd1',
      status: 'indexing',
    });
    expect(indexing.docs[0]).toEqual(doc('d1', { status: 'indexing' }));
    const ready = patchDocuments('s1', indexing.docs, {
      type: 'document',
      sourceId: 's1',
      documentId: 'd1',
      status: 'ready',
      chunks: 7,
    });
    expect(ready.docs[0]).toEqual(doc('d1', { status: 'ready', chunks: 7 }));
    expect(ready.docs[1]).toBe(docs[1]);
    const failed = patchDocuments('s1', docs, {
      type: 'document',
      sourceId: 's1',
      documentId: 'd2',
      status: 'error',
      error: 'Embeddings failed',
    });
    expect(failed.docs[1]).toEqual(doc('d2', { status: 'error', error: 'Embeddings failed' }));
  });

  it('removes a document, ignores another source’s, and says when it lacks one', () => {
    const docs = [doc('d1'), doc('d2')];
    expect(
      patchDocuments('s1', docs, { type: 'document.removed', sourceId: 's1', documentId: 'd1' }).docs,
    ).toEqual([doc('d2')]);
    expect(
      patchDocuments('s1', docs, { type: 'document', sourceId: 's2', documentId: 'd1', status: 'ready' }),
    ).toEqual({ docs, known: true });
    expect(
      patchDocuments('s1', docs, { type: 'document', sourceId: 's1', documentId: 'd9', status: 'pending' }),
    ).toEqual({ docs, known: false });
  });
});

describe('applying pushed events to the query cache', () => {
  it('patches the sources and documents in place, reading counts again when a sync ends', () => {
    const { client, refresh, apply } = setup();
    client.setQueryData(knowledgeKeys.list, [source('s1')]);
    client.setQueryData(knowledgeKeys.documents('s1'), [doc('d1')]);
    apply({ type: 'source', sourceId: 's1', status: 'syncing', progress: { done: 1, total: 3 } });
    expect(client.getQueryData<KnowledgeSource[]>(knowledgeKeys.list)?.[0]).toMatchObject({
      status: 'syncing',
      progress: { done: 1, total: 3 },
    });
    expect(refresh.calls).toEqual([]);
    apply({ type: 'document', sourceId: 's1', documentId: 'd1', status: 'ready', chunks: 4 });
    expect(client.getQueryData<KnowledgeDocument[]>(knowledgeKeys.documents('s1'))?.[0]).toMatchObject({
      status: 'ready',
      chunks: 4,
    });
    // A document done: the source's counts are read again.
    expect(refresh.calls).toEqual(['sources']);
    apply({ type: 'source', sourceId: 's1', status: 'idle' });
    expect(client.getQueryData<KnowledgeSource[]>(knowledgeKeys.list)?.[0]?.status).toBe('idle');
    expect(refresh.calls).toEqual(['sources', 'sources']);
  });

  it('reads again what it lacks: a new source, a new document', () => {
    const { client, refresh, apply } = setup();
    client.setQueryData(knowledgeKeys.list, [source('s1')]);
    client.setQueryData(knowledgeKeys.documents('s1'), [doc('d1')]);
    apply({ type: 'source', sourceId: 's2', status: 'syncing' });
    expect(refresh.calls).toEqual(['sources', 'choices']);
    apply({ type: 'document', sourceId: 's1', documentId: 'd2', status: 'pending' });
    // The new document, and the source's counts: it is indexing one more.
    expect(refresh.calls).toEqual(['sources', 'choices', 'documents:s1', 'sources']);
    // Documents of a source whose list is not open: only the counts are read.
    apply({ type: 'document', sourceId: 's3', documentId: 'd3', status: 'indexing' });
    expect(refresh.calls).toEqual(['sources', 'choices', 'documents:s1', 'sources', 'sources']);
  });

  it('forgets a removed source and its documents', () => {
    const { client, apply } = setup();
    client.setQueryData(knowledgeKeys.list, [source('s1'), source('s2')]);
    client.setQueryData(knowledgeKeys.documents('s1'), [doc('d1')]);
    apply({ type: 'source.removed', sourceId: 's1' });
    expect(client.getQueryData<KnowledgeSource[]>(knowledgeKeys.list)?.map((s) => s.sourceId)).toEqual([
      's2',
    ]);
    expect(client.getQueryData(knowledgeKeys.documents('s1'))).toBeUndefined();
  });

  it('a read that raced an event does not undo it: the journal replays what came after it began', () => {
    const { client, journal, apply } = setup();
    client.setQueryData(knowledgeKeys.documents('s1'), [doc('d1')]);
    // A read begins; meanwhile d1 is indexed and the screen told so.
    const mark = journal.mark();
    apply({ type: 'document', sourceId: 's1', documentId: 'd1', status: 'ready', chunks: 2 });
    // The read answers with what the server had when it began.
    const answered = [doc('d1', { status: 'indexing' })];
    expect(journal.replayDocuments('s1', answered, mark)).toEqual({
      docs: [doc('d1', { status: 'ready', chunks: 2 })],
      complete: true,
    });
    const sources = journal.replaySources([source('s1')], journal.mark());
    expect(sources).toEqual({ list: [source('s1')], complete: true });
  });

  it('a read that began before a row was stored says so, so it is read again', () => {
    const { journal, apply } = setup();
    // The documents are read while a sync stores its first page and the screen is told of it.
    const mark = journal.mark();
    apply({ type: 'document', sourceId: 's1', documentId: 'd9', status: 'indexing' });
    expect(journal.replayDocuments('s1', [], mark).complete).toBe(false);
    // Another source's document says nothing of this list.
    expect(journal.replayDocuments('s2', [], mark).complete).toBe(true);
    const sourcesMark = journal.mark();
    apply({ type: 'source', sourceId: 's7', status: 'syncing' });
    expect(journal.replaySources([source('s1')], sourcesMark).complete).toBe(false);
  });

  it('keeps a bounded journal', () => {
    const journal = new EventJournal(3);
    for (let i = 0; i < 5; i++) journal.add({ type: 'source.removed', sourceId: `s${i}` });
    expect(journal.since(0).map((e) => e.type === 'source.removed' && e.sourceId)).toEqual([
      's2',
      's3',
      's4',
    ]);
  });
});

describe('coalesced refreshes', () => {
  it('a burst of asks reads each list once, after the burst', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const refresh = coalescedRefresh(client, 300);
    for (let i = 0; i < 20; i++) {
      refresh.sources();
      refresh.documents('s1');
    }
    refresh.documents('s2');
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(300);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      knowledgeKeys.list,
      knowledgeKeys.documents('s1'),
      knowledgeKeys.documents('s2'),
    ]);
    refresh.choices();
    refresh.cancel();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(invalidate).toHaveBeenCalledTimes(3);
  });
});
