// OpenAI-compatible API bench (issue 13): what POST /v1/chat/completions with `stream: true` adds to
// the time to first token over calling the model fixture directly. Fixture and server each run in
// their own process (as for the websocket's streaming bench); direct and through-the-server calls
// alternate, so drift in the machine's load hits both alike.
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { epochNow, readStamps } from '../apps/server/src/test/llm-fixture.ts';
import { startChild } from './child.ts';
import { describeSpread, percentile, ROUNDS, type Spread, spread, verdict } from './rounds.ts';

/** The bars: what the server adds to the first token, admission included, and admission alone. */
const MAX_ADDED_MS = 5;
const MAX_ADMISSION_MS = 2;

export interface OpenAiApiBenchResult {
  samplesPerRound: number;
  ttft: {
    directP50Ms: Spread;
    serverP50Ms: Spread;
    /** The same calls by someone a budget covers (estimate, hold, settle). */
    budgetedP50Ms: Spread;
    /** Budgeted − direct, per round: the bar's figure. */
    addedP50Ms: Spread;
    addedWithoutBudgetP50Ms: Spread;
  };
  budget: { addedTtftP50Ms: number; ok: boolean };
  /** Budgeted − not budgeted, per round: what admission adds. */
  admission: { addedP50Ms: Spread; budgetMs: number; ok: boolean };
  machine: { loadAverage: number[]; cpus: number };
}

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
  const samples = Number(process.env.BENCH_TTFT_SAMPLES ?? 10);
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
    const direct: number[][] = [];
    const through: number[][] = [];
    const budgeted: number[][] = [];
    // One unmeasured round warms the server's model worker, caches and the tokenizer up.
    for (let r = -1; r < ROUNDS; r++) {
      const d: number[] = [];
      const s: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < (r < 0 ? 3 : samples); i++) {
        d.push(
          await firstToken(`http://127.0.0.1:${fixturePort}/v1/chat/completions`, {
            model: 'stamp-10x5',
            messages,
          }),
        );
        // Each call's ledger writes run after its stream ends, into the next call's start: the two
        // server paths swap places every sample so neither always follows the other.
        const plain = async () =>
          s.push(
            await firstToken(
              `http://127.0.0.1:${port}/v1/chat/completions`,
              { model: `${providerId}:stamp-10x5`, messages },
              { authorization: `Bearer ${apiKey}` },
            ),
          );
        const covered = async () =>
          b.push(
            await firstToken(
              `http://127.0.0.1:${port}/v1/chat/completions`,
              { model: `${providerId}:stamp-10x5`, messages },
              { authorization: `Bearer ${budgetedKey}` },
            ),
          );
        if (i % 2 === 0) {
          await plain();
          await covered();
        } else {
          await covered();
          await plain();
        }
      }
      if (r < 0) continue;
      direct.push(d);
      through.push(s);
      budgeted.push(b);
    }
    const p50 = (xs: number[]) => percentile(xs, 50);
    const added = spread(budgeted.map((b, i) => p50(b) - p50(direct[i] as number[])));
    const admission = spread(budgeted.map((b, i) => p50(b) - p50(through[i] as number[])));
    return {
      samplesPerRound: samples,
      ttft: {
        directP50Ms: spread(direct.map(p50)),
        serverP50Ms: spread(through.map(p50)),
        budgetedP50Ms: spread(budgeted.map(p50)),
        addedP50Ms: added,
        addedWithoutBudgetP50Ms: spread(through.map((x, i) => p50(x) - p50(direct[i] as number[]))),
      },
      budget: { addedTtftP50Ms: MAX_ADDED_MS, ok: added.median <= MAX_ADDED_MS },
      admission: {
        addedP50Ms: admission,
        budgetMs: MAX_ADMISSION_MS,
        ok: admission.median <= MAX_ADMISSION_MS,
      },
      machine: { loadAverage: os.loadavg().map(round), cpus: os.cpus().length },
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

export function describeOpenAiApi(r: OpenAiApiBenchResult): string {
  const t = r.ttft;
  return `OpenAI-compatible API, streamed first token by someone a budget covers: direct p50 ${describeSpread(t.directP50Ms, ' ms')}, through /v1/chat/completions ${describeSpread(t.budgetedP50Ms, ' ms')}; added ${describeSpread(t.addedP50Ms, ' ms')} (budget ≤ ${r.budget.addedTtftP50Ms} ms) ${verdict(r.budget.ok)}, of which admission (estimate, hold) ${describeSpread(r.admission.addedP50Ms, ' ms')} (budget ≤ ${r.admission.budgetMs} ms) ${verdict(r.admission.ok)}`;
}

// `node --import tsx bench/openai-api.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchOpenAiStreaming();
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  console.log(describeOpenAiApi(r));
}
