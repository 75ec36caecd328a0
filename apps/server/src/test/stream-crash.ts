// The 200-stream crash (issue 15): a real server process streams answers to many sockets and is
// killed (-9) mid-stream. On the embedded database a new process then starts on its data directory;
// on PostgreSQL a second replica (this process) is alive all along. Shared by the fault suite (which
// asserts on it) and `npm run bench` (which reports it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { messages } from '../db/schema/index.ts';
import { TestSocket } from './agents-client.ts';
import { makeDomain, makeUser } from './factories.ts';
import { readStamps, startLlmFixture } from './llm-fixture.ts';
import { startServerProcess } from './server-process.ts';

export interface StreamCrashOptions {
  streams?: number;
  /** The model writes a token this often per stream. */
  tokenMs?: number;
  /** How long every stream has been streaming when the server is killed. */
  streamForMs?: number;
  /** An empty PostgreSQL database to run on, with a surviving replica; the embedded one otherwise. */
  databaseUrl?: string;
}

export interface StreamCrashResult {
  streams: number;
  tokenMs: number;
  /**
   * Per answer: the stream time its reader saw that the store lacks after the restart — the moment
   * the model wrote the last token the reader got, minus that of the last token stored (0 when the
   * store has all the reader got).
   */
  lossMs: number[];
  /** From the kill until no answer was left streaming. */
  finalisedAfterMs: number;
  /** Whatever broke "nothing the user sent is lost, nothing stays streaming": empty when none did. */
  problems: string[];
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};
export const lossSummary = (r: StreamCrashResult) => ({
  p50Ms: Math.round(percentile(r.lossMs, 50)),
  maxMs: Math.round(Math.max(0, ...r.lossMs)),
});

const until = async (what: string, check: () => boolean | Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

export async function runStreamCrash(opts: StreamCrashOptions = {}): Promise<StreamCrashResult> {
  const streams = opts.streams ?? 200;
  const tokenMs = opts.tokenMs ?? 50;
  const streamForMs = opts.streamForMs ?? 2_000;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-crash-'));
  // Stamped tokens: each says when the model wrote it, so a loss reads as stream time.
  const fx = await startLlmFixture({
    record: false,
    script: { chunks: new Array<string>(100_000).fill('x'), delayMs: tokenMs, stamp: true },
  });
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: opts.databaseUrl ?? '',
    REDIS_URL: '',
    PUBLIC_URL: 'http://127.0.0.1:1',
    WEB_DIST: path.join(dataDir, 'no-web'),
    PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}`,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
  };
  const open = () => buildApp({ config: loadConfig(env), bootstrap: false, logger: false });
  const sockets: TestSocket[] = [];
  try {
    // The users and the provider, set up here. On the embedded database this process then lets go
    // of it; on PostgreSQL it stays, a replica that survives the other.
    const setup = await open();
    const domain = await makeDomain(setup.ctx);
    const admin = await makeUser(setup.ctx, { domain, role: 'Admin', withPassword: false });
    const configured = await setup.app.inject({
      method: 'POST',
      url: '/api/v1/settings/providers',
      headers: admin.headers,
      payload: {
        kind: 'openai-compatible',
        label: 'Fixture',
        baseUrl: fx.baseUrl,
        models: ['fixture-small'],
      },
    });
    if (configured.statusCode !== 201) throw new Error(`configuring the fixture failed: ${configured.body}`);
    const tokens: string[] = [];
    for (let i = 0; i < streams; i++) {
      tokens.push((await makeUser(setup.ctx, { domain, withPassword: false })).idToken);
    }
    if (!opts.databaseUrl) await setup.app.close();

    let killedAt = Date.now();
    const server = await startServerProcess(env);
    try {
      for (let i = 0; i < streams; i += 50) {
        sockets.push(
          ...(await Promise.all(
            tokens
              .slice(i, i + 50)
              .map((token) => TestSocket.open(server.wsUrl, { token, timeoutMs: 30_000 })),
          )),
        );
      }
      sockets.forEach((s, i) => {
        s.send({ type: 'chat.send', requestId: `c${i}`, chatId: null, content: `Question ${i}` });
      });
      const answers = await Promise.all(
        sockets.map((s, i) =>
          s
            .next('message.created', (f) => f.requestId === `c${i}` && f.message.role === 'assistant', 60_000)
            .then((f) => f.message.messageId),
        ),
      );
      await Promise.all(
        sockets.map((s, i) => s.next('message.delta', (f) => f.messageId === answers[i], 60_000)),
      );
      await new Promise((r) => setTimeout(r, streamForMs));
      killedAt = Date.now();
      await server.kill9();
    } finally {
      await server.kill9();
    }

    // The next process on the same data directory, or the surviving replica.
    const next = opts.databaseUrl ? setup : await open();
    try {
      await until(
        'the interrupted answers to be finalised',
        async () =>
          (await next.ctx.db.select().from(messages).where(eq(messages.status, 'streaming'))).length === 0,
        90_000,
      );
      const finalisedAfterMs = Date.now() - killedAt;
      const rows = await next.ctx.db.select().from(messages);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const problems: string[] = [];
      const lossMs: number[] = [];
      for (const [i, s] of sockets.entries()) {
        const created = s.all('message.created');
        const ofSend = (role: 'user' | 'assistant') =>
          created.find((f) => f.requestId === `c${i}` && f.message.role === role)?.message.messageId;
        const questionId = ofSend('user');
        const answerId = ofSend('assistant');
        if ((questionId ? byId.get(questionId) : undefined)?.content !== `Question ${i}`) {
          problems.push(`question ${i} was not stored`);
        }
        const answer = answerId ? byId.get(answerId) : undefined;
        if (!answerId || !answer) {
          problems.push(`answer ${i} was not stored`);
          continue;
        }
        if (answer.status !== 'error' || answer.errorCode !== 'UNAVAILABLE') {
          problems.push(`answer ${i} ended as ${answer.status}`);
        }
        const seen = readStamps(s.textOf(answerId));
        const stored = readStamps(answer.content);
        // The store holds the stream's text in order, no piece twice: what the reader saw of it is
        // a prefix of it, or it a prefix of that.
        const inOrder = stored.every((x, k) => k === 0 || x > (stored[k - 1] as number));
        if (!inOrder || seen.slice(0, stored.length).some((x, k) => x !== stored[k])) {
          problems.push(`answer ${i}: the stored text is not what was streamed`);
        }
        const lastSeen = seen.at(-1);
        if (lastSeen === undefined || stored.length >= seen.length) lossMs.push(0);
        else lossMs.push(lastSeen - (stored.at(-1) ?? (seen[0] as number) - tokenMs));
      }
      return { streams, tokenMs, lossMs, finalisedAfterMs, problems };
    } finally {
      await next.app.close();
    }
  } finally {
    for (const s of sockets) s.ws.terminate();
    await fx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
