// OpenAI-compatible API bench (issue 13): what POST /v1/chat/completions with `stream: true` adds to
// the time to first token over calling the model fixture directly. Fixture and server each run in
// their own process (as for the websocket's streaming bench); direct and through-the-server calls
// alternate, so drift in the machine's load hits both alike.
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { epochNow, readStamps } from '../apps/server/src/test/llm-fixture.ts';
import { startChild } from './stream.ts';

export interface OpenAiApiBenchResult {
  samples: number;
  ttft: { directP50Ms: number; serverP50Ms: number; addedP50Ms: number; serverP99Ms: number };
  budget: { addedTtftP50Ms: number; ok: boolean };
  /** The same calls by someone a budget covers: what its admission (estimate, hold, settle) adds. */
  admission: { budgetedP50Ms: number; addedP50Ms: number; budgetMs: number; ok: boolean };
  machine: { loadAverage: number[]; cpus: number };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
};
const round = (n: number) => Math.round(n * 100) / 100;

/** Milliseconds from the request to the first chunk carrying a fixture stamp; reads the stream to its end. */
async function firstToken(url: string, body: object, headers: Record<string, string> = {}): Promise<number> {
  const t0 = epochNow();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ ...body, stream: true }),
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  let first: number | undefined;
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const at = epochNow();
    if (first === undefined && readStamps(decoder.decode(chunk, { stream: true })).length > 0) first = at;
  }
  if (first === undefined) throw new Error(`${url} streamed no token`);
  return first - t0;
}

export async function benchOpenAiStreaming(): Promise<OpenAiApiBenchResult> {
  const samples = Number(process.env.BENCH_TTFT_SAMPLES ?? 40);
  const children: ChildProcess[] = [];
  try {
    const fixture = await startChild('bench/stream-fixture.ts', {});
    children.push(fixture.child);
    const fixturePort = fixture.info.port as number;
    const server = await startChild(
      'bench/stream-server.ts',
      { FIXTURE_PORT: String(fixturePort), BENCH_USERS: '1' },
      true,
    );
    children.push(server.child);
    const { port, providerId, apiKey, budgetedKey } = server.info as {
      port: number;
      providerId: string;
      apiKey: string;
      budgetedKey: string;
    };
    const messages = [{ role: 'user', content: 'bench' }];
    const direct: number[] = [];
    const through: number[] = [];
    const budgeted: number[] = [];
    for (let i = 0; i < samples + 3; i++) {
      const d = await firstToken(`http://127.0.0.1:${fixturePort}/v1/chat/completions`, {
        model: 'stamp-10x5',
        messages,
      });
      // Each call's ledger writes run after its stream ends, into the next call's start: the two
      // server paths swap places every round so neither always follows the other.
      const plain = () =>
        firstToken(
          `http://127.0.0.1:${port}/v1/chat/completions`,
          { model: `${providerId}:stamp-10x5`, messages },
          { authorization: `Bearer ${apiKey}` },
        );
      const covered = () =>
        firstToken(
          `http://127.0.0.1:${port}/v1/chat/completions`,
          { model: `${providerId}:stamp-10x5`, messages },
          { authorization: `Bearer ${budgetedKey}` },
        );
      let s: number;
      let b: number;
      if (i % 2 === 0) {
        s = await plain();
        b = await covered();
      } else {
        b = await covered();
        s = await plain();
      }
      // The first few warm the server's model worker, caches and the tokenizer up.
      if (i < 3) continue;
      direct.push(d);
      through.push(s);
      budgeted.push(b);
    }
    const directP50Ms = round(pct(direct, 50));
    const serverP50Ms = round(pct(through, 50));
    const addedP50Ms = round(serverP50Ms - directP50Ms);
    return {
      samples,
      ttft: { directP50Ms, serverP50Ms, addedP50Ms, serverP99Ms: round(pct(through, 99)) },
      budget: { addedTtftP50Ms: 10, ok: addedP50Ms <= 10 },
      admission: {
        budgetedP50Ms: round(pct(budgeted, 50)),
        addedP50Ms: round(pct(budgeted, 50) - serverP50Ms),
        budgetMs: 2,
        ok: pct(budgeted, 50) - serverP50Ms <= 2,
      },
      machine: { loadAverage: os.loadavg().map(round), cpus: os.cpus().length },
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}
