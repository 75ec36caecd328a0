import path from 'node:path';
import { MessageSchema } from '@assistente/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentsTestApp, startAgentsTestApp } from '../../test/agents-app.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';

/**
 * A replica killed (-9) mid-answer, with a second replica alive on the same PostgreSQL: the survivor
 * ends the orphaned answer as interrupted within a minute, keeping the text that was stored, and
 * the user may start an answer again at once (the dead replica's slot is free by then; shared in
 * Redis when REDIS_URL is set). Real server processes on the test's own database; only the model provider is a fixture.
 */
const FINALISED_WITHIN_MS = 60_000;

/** A replica of the in-process app: its signing key (DATA_DIR), issuer, database and key prefix. */
const startReplica = (app: AgentsTestApp) =>
  startServerProcess({
    PUBLIC_URL: app.t.ctx.config.PUBLIC_URL,
    DATA_DIR: app.t.dataDir,
    DATABASE_URL: app.t.databaseUrl,
    KEY_PREFIX: app.t.ctx.keyPrefix,
    WEB_DIST: path.join(app.t.dataDir, 'no-web'),
    PROVIDER_URL_ALLOWLIST: `127.0.0.1:${app.fx.port}`,
    // One answer at a time: the killed replica's slot must be free for the next one.
    AGENT_MAX_CONCURRENT: '1',
  });

let app: AgentsTestApp;
let alice: TestUser;
const replicas: ServerProcess[] = [];

beforeAll(async () => {
  // A long, slow answer: the kill lands in its middle.
  app = await startAgentsTestApp({
    script: { text: Array.from({ length: 400 }, (_, i) => `w${i}`).join(' '), delayMs: 50 },
  });
  if (!app.t.databaseUrl) throw new Error('this test runs on PostgreSQL only (TEST_DB=postgres)');
  alice = await makeUser(app.t.ctx, { domain: app.domain });
  // Only the replicas sweep: the in-process app is here to set up and to read.
  await app.t.ctx.scheduler.close();
  replicas.push(await startReplica(app), await startReplica(app));
}, 180_000);

afterAll(async () => {
  for (const r of replicas) r.child.kill('SIGKILL');
  await app?.close();
}, 60_000);

describe('a replica killed mid-answer', () => {
  it('leaves nothing streaming: the surviving replica ends the answer as interrupted within a minute, its stored text kept', async () => {
    const [doomed, survivor] = replicas as [ServerProcess, ServerProcess];
    const s = await TestSocket.open(doomed.wsUrl, {
      token: alice.idToken,
    });
    s.send({ type: 'chat.send', requestId: 'r', chatId: null, content: 'A long answer, please' });
    const created = await s.next(
      'message.created',
      (f) => f.requestId === 'r' && f.message.role === 'assistant',
    );
    const { chatId, messageId } = created.message;
    await s.next('message.delta', (f) => f.messageId === messageId && s.textOf(messageId).length > 200);

    doomed.child.kill('SIGKILL');
    const killedAt = Date.now();
    const seen = s.textOf(messageId);

    const messagesOf = async () => {
      const res = await fetch(`${survivor.base}/api/v1/chats/${chatId}/messages`, {
        headers: { authorization: `Bearer ${alice.idToken}` },
      });
      expect(res.status).toBe(200);
      return z.array(MessageSchema).parse(await res.json());
    };
    let answer = (await messagesOf()).find((m) => m.messageId === messageId);
    expect(answer?.status).toBe('streaming');
    while (answer?.status === 'streaming' && Date.now() - killedAt < FINALISED_WITHIN_MS + 5_000) {
      await new Promise((r) => setTimeout(r, 250));
      answer = (await messagesOf()).find((m) => m.messageId === messageId);
    }
    const tookMs = Date.now() - killedAt;
    expect(answer).toMatchObject({ status: 'error', errorCode: 'UNAVAILABLE' });
    expect(tookMs).toBeLessThanOrEqual(FINALISED_WITHIN_MS);
    // What was stored is what the reader saw, up to the last flush before the kill.
    expect(answer?.content.length).toBeGreaterThan(0);
    expect(seen.startsWith(answer?.content ?? '')).toBe(true);

    // Shown as interrupted, so alice asks again on the survivor: her only slot is no longer held.
    const again = await TestSocket.open(survivor.wsUrl, { token: alice.idToken });
    again.send({ type: 'chat.send', requestId: 'again', chatId: null, content: 'Once more' });
    const answered = await again
      .next('message.created', (f) => f.requestId === 'again' && f.message.role === 'assistant')
      .catch(() => undefined);
    expect(answered, JSON.stringify(again.all('error'))).toBeDefined();
    await again.close();
  }, 120_000);
});
