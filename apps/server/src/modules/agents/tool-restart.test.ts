import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { messages } from '../../db/schema/index.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { makeDomain, makeUser } from '../../test/factories.ts';
import { useFixtureModel } from '../../test/fixture-model.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { type McpStandin, startMcpStandin } from '../../test/mcp-standin.ts';

const ORIGIN = 'http://localhost:3999';
const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-tool-restart-'));
let fx: LlmFixture;
let mcp: McpStandin;

beforeAll(async () => {
  fx = await startLlmFixture();
  mcp = await startMcpStandin();
});
afterAll(async () => {
  await fx?.close();
  await mcp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The server on the embedded database of `dataDir`, listening: each call is a new process's worth. */
async function start() {
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: ORIGIN,
    WEB_DIST: path.join(dataDir, 'no-web'),
    PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port},127.0.0.1:${mcp.port}`,
  });
  const built = await buildApp({ config, bootstrap: false, logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (built.app.server.address() as AddressInfo).port;
  return { ...built, wsUrl: `ws://127.0.0.1:${port}/api/v1/agents/chat/` };
}

describe('an answer waiting for approval', () => {
  it('survives a restart: the new process neither ends it nor forgets it, and goes on when it is allowed', async () => {
    const first = await start();
    const domain = await makeDomain(first.ctx, { premium: true });
    const admin = await makeUser(first.ctx, { domain, role: 'Admin' });
    const inject = async (method: 'POST' | 'PUT', url: string, payload: object) => {
      const res = await first.app.inject({ method, url, headers: admin.headers, payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json() as Record<string, string>;
    };
    await useFixtureModel(first.app, admin.headers, fx.baseUrl);
    const server = await inject('POST', '/api/v1/integration/mcp', { displayName: 'Stand-in', url: mcp.url });
    const santito = await inject('POST', '/api/v1/agent', {
      name: 'Asker',
      tools: [`mcp:${server.id}:echo`],
    });

    fx.enqueue({ text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"after the restart"}' }] });
    const s = await TestSocket.open(first.wsUrl, { origin: ORIGIN, token: admin.idToken });
    s.send({ type: 'chat.send', requestId: 'q', chatId: null, agentId: santito._id, content: 'Echo it' });
    const call = await s.next('tool.call', () => true);
    expect(call.needsApproval).toBe(true);
    await s.next('message.done', (f) => f.messageId === call.messageId && f.status === 'awaiting_approval');
    await s.close();
    await first.app.close();

    const second = await start();
    try {
      // The new sole writer's sweep at start ends answers left streaming; a paused one is not.
      await new Promise((r) => setTimeout(r, 300));
      const [paused] = await second.ctx.db.select().from(messages).where(eq(messages.id, call.messageId));
      expect(paused?.status).toBe('awaiting_approval');

      fx.enqueue({ text: 'It said: after the restart.' });
      const again = await TestSocket.open(second.wsUrl, { origin: ORIGIN, token: admin.idToken });
      again.send({
        type: 'tool.approve',
        chatId: call.chatId,
        toolCallId: call.toolCallId,
        decision: 'allow',
      });
      const done = await again.next('message.done', (f) => f.messageId === call.messageId, 10_000);
      expect(done.status).toBe('complete');
      expect(mcp.calls).toContainEqual({ name: 'echo', args: { text: 'after the restart' } });
      const [row] = await second.ctx.db.select().from(messages).where(eq(messages.id, call.messageId));
      expect(row?.content).toBe('It said: after the restart.');
      await again.close();
    } finally {
      await second.app.close();
    }
  });
});
