// Knowledge bench (issue 12 and issue 30, docs/ARCHITECTURE.md#knowledge), on the embedded database and, when
// BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on PostgreSQL too. One server per database, with
// 100,000 synthetic chunks seeded in bulk first; then ROUNDS rounds (≥ 5), each taking:
// - indexing: Confluence pages synced → extracted → chunked → embedded → stored, through the real
//   sync, against a Confluence Cloud stand-in and the model fixture's /v1/embeddings, both over real
//   sockets (a new space each round, written beside the 100,000 chunks);
// - retrieval: hybrid (vector + full text, RRF) over the 100,000 chunks, timed in the server process
//   (no HTTP in the figure), p50 and p99 of the round's questions;
// - time to first token of a chat with a santito that has knowledge (those 100,000 chunks) against
//   the same santito without, sends alternating so drift in the machine's load hits both alike.
// Each figure is reported as min / median / max of the rounds; the budget holds the medians.
// Quick runs: BENCH_KNOWLEDGE_PAGES, BENCH_KNOWLEDGE_CHUNKS, BENCH_KNOWLEDGE_RETRIEVALS and
// BENCH_TTFT_SAMPLES (per round), BENCH_ROUNDS, BENCH_KNOWLEDGE_PGLITE=off / BENCH_KNOWLEDGE_POSTGRES=off.
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { KnowledgeSource, Santito, ServerFrame } from '@assistente/contracts';
import WebSocket from 'ws';
import {
  type ConfluenceStandin,
  startConfluenceStandin,
} from '../apps/server/src/test/confluence-standin.ts';
import { FIXTURE_EMBEDDING_DIMS } from '../apps/server/src/test/llm-fixture.ts';
import { startChild } from './child.ts';
import { describeSpread, percentile, ROUNDS, type Spread, spread, verdict } from './rounds.ts';

/** The bars of issue 30, on the medians of the rounds. */
const BUDGET = {
  minPagesPerSecond: 100,
  maxRetrievalP50Ms: 15,
  maxRetrievalP99Ms: 40,
  maxAddedTtftMs: 15,
};

export interface KnowledgeRunResult {
  database: 'pglite' | 'postgres';
  rounds: number;
  indexing: { pages: number; chunks: number; pagesPerSecond: Spread };
  retrieval: {
    chunks: number;
    dims: number;
    vectorIndex: string;
    seedSeconds: number;
    indexBuildSeconds: number;
    /** Questions timed per round. */
    samples: number[];
    p50Ms: Spread;
    p99Ms: Spread;
    /** Each half alone (a third of the questions): where the time goes. */
    vectorHalfP50Ms: Spread;
    keywordHalfP50Ms: Spread;
  };
  ttft: { samples: number[]; withoutP50Ms: Spread; withP50Ms: Spread; addedP50Ms: Spread; withP99Ms: Spread };
  budget: typeof BUDGET & { ok: boolean };
}

export interface KnowledgeBenchResult {
  runs: KnowledgeRunResult[];
  budget: { ok: boolean };
  machine: { loadAverage: number[]; cpus: number };
}

const pct = percentile;
const round = (n: number) => Math.round(n * 100) / 100;

const PAGES = Number(process.env.BENCH_KNOWLEDGE_PAGES ?? 500);
const CHUNKS = Number(process.env.BENCH_KNOWLEDGE_CHUNKS ?? 100_000);
const RETRIEVALS = Number(process.env.BENCH_KNOWLEDGE_RETRIEVALS ?? 200);
const TTFT_SAMPLES = Number(process.env.BENCH_TTFT_SAMPLES ?? 40);

/** Requests to the server child over IPC, answered by id. */
function ipc(child: ChildProcess) {
  let next = 0;
  return <T>(command: object): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = ++next;
      const onMessage = (m: { id: number; result?: T; error?: string }) => {
        if (m.id !== id) return;
        child.off('message', onMessage);
        if (m.error) reject(new Error(m.error));
        else resolve(m.result as T);
      };
      child.on('message', onMessage);
      child.send({ id, ...command });
    });
}

/** A Confluence page of about 4 KB: headings, paragraphs and a list, in storage format. */
function pageBody(i: number, words: string[]): string {
  const w = (n: number, k: number) =>
    Array.from({ length: n }, (_, j) => words[(i * 31 + k * 17 + j * 7) % words.length]).join(' ');
  const sections = Array.from(
    { length: 4 },
    (_, s) =>
      `<h2>Part ${s + 1} ${w(2, s)}</h2><p>${w(60, s + 1)}.</p><p>${w(50, s + 2)}.</p><ul><li>${w(8, s + 3)}</li><li>${w(8, s + 4)}</li></ul>`,
  );
  return `<h1>Page ${i}</h1>${sections.join('')}`;
}

async function api<T>(base: string, token: string, method: string, url: string, body?: object): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Milliseconds from each chat.send to its first delta, and on to the answer's end. */
async function openSocket(url: string, token: string) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let listener: ((f: ServerFrame) => void) | undefined;
  // Answers ended, noted as they come: one socket read can hold the first delta and the end.
  const ended = new Set<string>();
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as ServerFrame;
    if (frame.type === 'message.done') ended.add(frame.messageId);
    listener?.(frame);
  });
  const until = (pred: (f: ServerFrame) => boolean) =>
    new Promise<ServerFrame>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('knowledge bench: no frame within 30 s')), 30_000);
      listener = (f) => {
        if (f.type === 'error') {
          clearTimeout(timer);
          reject(new Error(`${f.code}: ${f.message}`));
        } else if (pred(f)) {
          clearTimeout(timer);
          resolve(f);
        }
      };
    });
  const ready = until((f) => f.type === 'ready');
  ws.send(JSON.stringify({ type: 'auth', token }));
  await ready;
  return {
    async firstToken(agentId: string, content: string): Promise<number> {
      const requestId = `k${Math.random()}`;
      const t0 = performance.now();
      const delta = until((f) => f.type === 'message.delta');
      ws.send(JSON.stringify({ type: 'chat.send', requestId, chatId: null, agentId, content }));
      const first = await delta;
      const took = performance.now() - t0;
      if (first.type === 'message.delta' && !ended.has(first.messageId)) {
        const id = first.messageId;
        await until((f) => f.type === 'message.done' && f.messageId === id);
      }
      return took;
    },
    close: () => ws.close(),
  };
}

async function runOnce(
  cf: ConfluenceStandin,
  fixturePort: number,
  databaseUrl?: string,
): Promise<KnowledgeRunResult> {
  const children: ChildProcess[] = [];
  try {
    const server = await startChild(
      'bench/knowledge-server.ts',
      {
        FIXTURE_PORT: String(fixturePort),
        CONFLUENCE_PORT: String(cf.port),
        ...(databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : { BENCH_DATABASE_URL: '' }),
      },
      true,
    );
    children.push(server.child);
    const call = ipc(server.child);
    const info = server.info as {
      port: number;
      idToken: string;
      providerId: string;
      embeddingModel: string;
      database: 'pglite' | 'postgres';
      vocabulary: string[];
    };
    const base = `http://127.0.0.1:${info.port}`;
    const token = info.idToken;

    // The 100,000 chunks of one files source, seeded before any round: indexing writes beside them.
    const files = await api<KnowledgeSource>(base, token, 'POST', '/api/v1/integration/knowledge', {
      kind: 'files',
      displayName: 'Bench corpus',
    });
    const dims = FIXTURE_EMBEDDING_DIMS;
    const seeded = await call<{ insertMs: number; ms: number; vectors: boolean }>({
      cmd: 'seed',
      sourceId: files.sourceId,
      count: CHUNKS,
      dims,
      model: info.embeddingModel,
    });

    // Time to first token: the same santito with and without the 100,000 chunks' source.
    const santito = (knowledge: Array<{ kind: 'source'; ref: string; title: string }>) =>
      api<Santito>(base, token, 'POST', '/api/v1/agent', {
        name: knowledge.length ? 'With knowledge' : 'Without knowledge',
        instructions: 'Answer briefly.',
        model: `${info.providerId}:stamp-5x2`,
        knowledge,
      });
    const withIt = await santito([{ kind: 'source', ref: files.sourceId, title: 'Bench corpus' }]);
    const without = await santito([]);

    const figures = {
      pagesPerSecond: [] as number[],
      chunks: 0,
      p50: [] as number[],
      p99: [] as number[],
      vectorP50: [] as number[],
      keywordP50: [] as number[],
      samples: [] as number[],
      withoutP50: [] as number[],
      withP50: [] as number[],
      added: [] as number[],
      withP99: [] as number[],
      ttftSamples: [] as number[],
    };
    for (let k = 0; k < ROUNDS; k++) {
      // Indexing through the real sync: create the source, ask for a sync, wait for it to end.
      const space = `B${k}${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
      cf.addSpace(space, 'Bench');
      for (let i = 0; i < PAGES; i++) {
        cf.putPage(space, {
          id: `${space}-${i}`,
          title: `Page ${i}`,
          body: pageBody(i + k * PAGES, info.vocabulary),
        });
      }
      const t0 = performance.now();
      const confluence = await api<KnowledgeSource>(base, token, 'POST', '/api/v1/integration/knowledge', {
        kind: 'confluence',
        displayName: `Bench wiki ${k}`,
        confluence: { baseUrl: `${cf.url}/wiki`, email: cf.email, apiToken: cf.token, spaces: [space] },
      });
      await api(base, token, 'POST', `/api/v1/integration/knowledge/${confluence.sourceId}/sync`);
      let synced: KnowledgeSource;
      for (;;) {
        synced = await api<KnowledgeSource>(
          base,
          token,
          'GET',
          `/api/v1/integration/knowledge/${confluence.sourceId}`,
        );
        if (synced.status !== 'syncing' && synced.lastSyncAt) break;
        if (synced.status === 'error') throw new Error(`sync failed: ${synced.error}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      const seconds = (performance.now() - t0) / 1000;
      if (synced.status !== 'idle' || synced.documents !== PAGES) {
        throw new Error(
          `sync ended ${synced.status} with ${synced.documents} of ${PAGES} pages: ${synced.error}`,
        );
      }
      const counted = await call<{ chunks: number; embedded: number }>({ cmd: 'count' });
      if (counted.embedded !== counted.chunks)
        throw new Error(`${counted.chunks - counted.embedded} chunks not embedded`);
      figures.pagesPerSecond.push(PAGES / seconds);
      figures.chunks = counted.chunks / (k + 1);

      // Bounded in time: without a vector index (PostgreSQL lacking pgvector) a question takes seconds.
      const timed = await call<{ ms: number[]; vectorMs: number[]; keywordMs: number[]; hits: number }>({
        cmd: 'retrieve',
        sourceIds: [files.sourceId],
        samples: RETRIEVALS,
        dims,
        model: info.embeddingModel,
        budgetMs: 15_000,
      });
      if (timed.hits === 0) throw new Error('retrieval found nothing');
      figures.p50.push(pct(timed.ms, 50));
      figures.p99.push(pct(timed.ms, 99));
      figures.vectorP50.push(pct(timed.vectorMs, 50));
      figures.keywordP50.push(pct(timed.keywordMs, 50));
      figures.samples.push(timed.ms.length);

      const socket = await openSocket(`${base.replace('http', 'ws')}/api/v1/agents/chat/`, token);
      const withMs: number[] = [];
      const withoutMs: number[] = [];
      try {
        const deadline = performance.now() + 15_000;
        for (let i = 0; i < TTFT_SAMPLES + 3 && (i < 4 || performance.now() < deadline); i++) {
          // A new question each time: nothing a cache kept from an earlier send answers it.
          const words = Array.from(
            { length: 5 },
            // Common words more often, as in the chunks.
            () => info.vocabulary[Math.floor(Math.random() * Math.random() * info.vocabulary.length)],
          );
          const question = `How do ${words.join(' ')} work (${k}.${i})?`;
          const a = await socket.firstToken(without._id, question);
          const b = await socket.firstToken(withIt._id, question);
          if (i < 3) continue;
          withoutMs.push(a);
          withMs.push(b);
        }
      } finally {
        socket.close();
      }
      figures.withoutP50.push(pct(withoutMs, 50));
      figures.withP50.push(pct(withMs, 50));
      figures.added.push(pct(withMs, 50) - pct(withoutMs, 50));
      figures.withP99.push(pct(withMs, 99));
      figures.ttftSamples.push(withMs.length);
    }

    const pagesPerSecond = spread(figures.pagesPerSecond);
    const p50Ms = spread(figures.p50);
    const p99Ms = spread(figures.p99);
    const addedP50Ms = spread(figures.added);
    return {
      database: info.database,
      rounds: ROUNDS,
      indexing: { pages: PAGES, chunks: Math.round(figures.chunks), pagesPerSecond },
      retrieval: {
        chunks: CHUNKS,
        dims,
        vectorIndex: seeded.vectors ? 'pgvector HNSW' : 'none (exact scan of real[])',
        seedSeconds: round(seeded.insertMs / 1000),
        indexBuildSeconds: round((seeded.ms - seeded.insertMs) / 1000),
        samples: figures.samples,
        p50Ms,
        p99Ms,
        vectorHalfP50Ms: spread(figures.vectorP50),
        keywordHalfP50Ms: spread(figures.keywordP50),
      },
      ttft: {
        samples: figures.ttftSamples,
        withoutP50Ms: spread(figures.withoutP50),
        withP50Ms: spread(figures.withP50),
        addedP50Ms,
        withP99Ms: spread(figures.withP99),
      },
      budget: {
        ...BUDGET,
        ok:
          pagesPerSecond.median >= BUDGET.minPagesPerSecond &&
          p50Ms.median <= BUDGET.maxRetrievalP50Ms &&
          p99Ms.median <= BUDGET.maxRetrievalP99Ms &&
          addedP50Ms.median <= BUDGET.maxAddedTtftMs,
      },
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
  }
}

export async function benchKnowledge(): Promise<KnowledgeBenchResult> {
  const children: ChildProcess[] = [];
  const cf = await startConfluenceStandin();
  try {
    const fixture = await startChild('bench/stream-fixture.ts', {
      FIXTURE_MODELS: 'stamp-5x2,fixture-embed',
    });
    children.push(fixture.child);
    const fixturePort = fixture.info.port as number;
    // BENCH_KNOWLEDGE_PGLITE=off / BENCH_KNOWLEDGE_POSTGRES=off leave a database out (runs of this file alone).
    const runs: KnowledgeRunResult[] = [];
    if (process.env.BENCH_KNOWLEDGE_PGLITE !== 'off') runs.push(await runOnce(cf, fixturePort));
    const postgres = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
    if (postgres && process.env.BENCH_KNOWLEDGE_POSTGRES !== 'off')
      runs.push(await runOnce(cf, fixturePort, postgres));
    return {
      runs,
      budget: { ok: runs.every((r) => r.budget.ok) },
      machine: { loadAverage: os.loadavg().map(round), cpus: os.cpus().length },
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await cf.close();
  }
}

/** One line per database, for bench/run.ts and a run of this file alone. */
export function describeKnowledge(r: KnowledgeBenchResult): string[] {
  return r.runs.map((run) => {
    const b = run.budget;
    return `Knowledge on ${run.database}, medians of rounds: indexing ${describeSpread(run.indexing.pagesPerSecond, ' pages/s')} over ${run.indexing.pages} Confluence pages a round (${run.indexing.chunks} chunks; bar ≥ ${b.minPagesPerSecond}); retrieval over ${run.retrieval.chunks.toLocaleString('en')} chunks p50 ${describeSpread(run.retrieval.p50Ms, ' ms')}, p99 ${describeSpread(run.retrieval.p99Ms, ' ms')} (bars ≤ ${b.maxRetrievalP50Ms} / ${b.maxRetrievalP99Ms} ms); first token with knowledge p50 ${describeSpread(run.ttft.withP50Ms, ' ms')} vs ${describeSpread(run.ttft.withoutP50Ms, ' ms')} without, added ${describeSpread(run.ttft.addedP50Ms, ' ms')} (bar ≤ ${b.maxAddedTtftMs} ms) ${verdict(b.ok)}`;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchKnowledge();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  for (const line of describeKnowledge(result)) process.stdout.write(`${line}\n`);
}
