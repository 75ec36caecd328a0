import type { AddressInfo } from 'node:net';
import { type Chat, ChatSchema } from '@assistente/contracts';
import { eq, getTableColumns } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { chats, messages, streamedContent } from '../db/schema/index.ts';
import { TestSocket } from './agents-client.ts';
import { buildTestApp, type TestApp } from './app.ts';
import { multipartFile } from './chats.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from './factories.ts';
import { useFixtureModel } from './fixture-model.ts';
import { type LlmFixture, startLlmFixture } from './llm-fixture.ts';

export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** The app's own origin (PUBLIC_URL): the browser's, which the socket route accepts. */
export const ORIGIN = 'http://localhost:3999';
/** What the fixture model answers unless a test scripts otherwise. */
export const ANSWER = 'The quick brown fox jumps over the lazy dog and keeps running far away.';

/** What an agents suite works with, filled in by its `beforeAll`. */
export interface AgentsSuite {
  t: TestApp;
  fx: LlmFixture;
  wsUrl: string;
  /** A premium domain whose Admin configured the fixture as its default model (`modelId`). */
  dom: TestDomain;
  admin: TestUser;
  alice: TestUser;
  bob: TestUser;
  /** Admin of another domain with the fixture as its default model too. */
  outsider: TestUser;
  /** A user of a domain with no provider. */
  lonely: TestUser;
  modelId: string;
}

/**
 * The agents websocket suites' app (listening, one per test file) with the streaming fixture as
 * two domains' provider, and the hooks that build, reset and close them: every socket a test
 * opened is closed after it, and must have received only valid frames. Read the handles inside
 * tests and hooks: they are set once `beforeAll` ran.
 */
export function useAgentsSuite(
  opts: {
    /** Started before the app: what else the suite needs (an MCP server), and hosts to allow. */
    allow?: () => Promise<string[]>;
    /** More of the app's settings, read once `allow` ran (a stand-in's address). */
    config?: () => Record<string, string>;
  } = {},
) {
  const the = {} as AgentsSuite;
  const open: TestSocket[] = [];

  beforeAll(async () => {
    the.fx = await startLlmFixture({ script: { text: ANSWER } });
    const also = (await opts.allow?.()) ?? [];
    const t = await buildTestApp({
      PROVIDER_URL_ALLOWLIST: [`127.0.0.1:${the.fx.port}`, ...also].join(','),
      AGENT_SENDS_PER_MINUTE: '10000',
      AGENT_MAX_CONCURRENT: '50',
      UPLOAD_MAX_BYTES: String(64 * 1024),
      ...opts.config?.(),
    });
    the.t = t;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    the.wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/agents/chat/`;
    the.dom = await makeDomain(t.ctx, { premium: true });
    the.admin = await makeUser(t.ctx, { domain: the.dom, role: 'Admin' });
    the.alice = await makeUser(t.ctx, { domain: the.dom });
    the.bob = await makeUser(t.ctx, { domain: the.dom });
    the.lonely = await makeUser(t.ctx);
    const otherDomain = await makeDomain(t.ctx);
    the.outsider = await makeUser(t.ctx, { domain: otherDomain, role: 'Admin' });
    the.modelId = await useFixtureModel(t.app, the.admin.headers, the.fx.baseUrl);
    await useFixtureModel(t.app, the.outsider.headers, the.fx.baseUrl);
  }, 120_000);

  beforeEach(() => {
    the.fx.reset();
  });

  afterEach(async () => {
    for (const s of open.splice(0)) {
      expect(s.invalid).toEqual([]);
      await s.close();
    }
  });

  afterAll(async () => {
    await the.t?.close();
    await the.fx?.close();
  });

  async function connect(who: TestUser, opts: { origin?: string } = {}): Promise<TestSocket> {
    const s = await TestSocket.open(the.wsUrl, { origin: opts.origin ?? ORIGIN, token: who.idToken });
    open.push(s);
    return s;
  }
  async function raw(opts: { origin?: string } = {}): Promise<TestSocket> {
    const s = await TestSocket.open(the.wsUrl, opts.origin ? { origin: opts.origin } : {});
    open.push(s);
    return s;
  }

  let seq = 0;
  const rid = () => `r${++seq}`;

  /** A message as stored, text streamed so far included (see messageChunks). */
  async function messageRow(id: string) {
    const [row] = await the.t.ctx.db
      .select({ ...getTableColumns(messages), content: streamedContent })
      .from(messages)
      .where(eq(messages.id, id));
    return row;
  }

  /** Sends and waits for the whole exchange: user message, answer start, answer end. */
  async function exchange(s: TestSocket, frame: Record<string, unknown>) {
    const requestId = (frame.requestId as string | undefined) ?? rid();
    const from = s.frames.length;
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'Hello there', ...frame });
    const user = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'user',
      10_000,
      from,
    );
    const assistant = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
      10_000,
      from,
    );
    const done = await s.next(
      'message.done',
      (f) => f.messageId === assistant.message.messageId,
      10_000,
      from,
    );
    return { requestId, chatId: user.chatId, user: user.message, assistant: assistant.message, done };
  }

  return {
    the,
    /** Sockets closed (and checked) after each test: push those a test opens itself. */
    open,
    connect,
    raw,
    rid,
    messageRow,
    exchange,
    async chatRow(id: string) {
      const [row] = await the.t.ctx.db.select().from(chats).where(eq(chats.id, id));
      return row;
    },
    async chatsOf(who: TestUser) {
      return the.t.ctx.db.select().from(chats).where(eq(chats.userId, who.user.id));
    },
    async waitForStored(id: string, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const row = await messageRow(id);
        if (row && row.status !== 'streaming') return row;
        if (Date.now() > deadline) throw new Error(`message ${id} still streaming`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async restChat(who: TestUser, body: object = {}): Promise<Chat> {
      const res = await the.t.app.inject({
        method: 'POST',
        url: '/api/v1/chats',
        headers: who.headers,
        payload: body,
      });
      expect(res.statusCode).toBe(201);
      return ChatSchema.parse(res.json());
    },
    /** Uploads files to alice's chat, answering their attachment ids in order. */
    async attachAll(chatId: string, files: Array<[string, string, Buffer]>): Promise<string[]> {
      const ids: string[] = [];
      for (const [name, type, data] of files) {
        const body = await multipartFile(name, type, data);
        const res = await the.t.app.inject({
          method: 'POST',
          url: `/api/v1/chats/${chatId}/attachments`,
          headers: { ...the.alice.headers, ...body.headers },
          payload: body.payload,
        });
        expect(res.statusCode, res.body).toBe(201);
        ids.push((res.json() as { attachmentId: string }).attachmentId);
      }
      return ids;
    },
  };
}
