import { ErrorBodySchema, ErrorCodes, ErrorStatus, type Message, WsLimits } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chats, messages, users } from '../../db/schema/index.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { ANSWER, ORIGIN, useAgentsSuite } from '../../test/agents-suite.ts';
import { makeSantito, makeUser, type TestUser } from '../../test/factories.ts';
import { describeWithRedis, replicaOf } from '../../test/redis.ts';
import { noProvider } from '../providers/errors.ts';
import { NO_PROVIDER_MESSAGE } from '../providers/index.ts';

const { the, open, connect, raw, exchange, waitForStored } = useAgentsSuite();

describe('handshake and auth', () => {
  it('answers a valid auth frame with ready, and ping with pong', async () => {
    const s = await connect(the.alice);
    expect(s.frames[0]).toMatchObject({
      type: 'ready',
      userId: the.alice.user.id,
      limits: { maxFrameBytes: WsLimits.maxFrameBytes },
    });
    s.send({ type: 'ping', id: 'p1' });
    expect(await s.next('pong')).toEqual({ type: 'pong', id: 'p1' });
  });

  it('accepts the no-slash path and a client without Origin (the editor extension)', async () => {
    const s = await TestSocket.open(the.wsUrl.replace(/\/$/, ''), { token: the.alice.idToken });
    open.push(s);
    expect(s.frames[0]?.type).toBe('ready');
  });

  it('answers an upgrade to any other path with 404; a query does not change the path', async () => {
    for (const path of ['/api/v1/chats', '/api/v1/agents/chat/x', '/nowhere', '/']) {
      await expect(
        TestSocket.open(the.wsUrl.replace('/api/v1/agents/chat/', path), {
          origin: ORIGIN,
          token: the.alice.idToken,
        }),
      ).rejects.toThrow('handshake refused: 404');
    }
    const s = await TestSocket.open(`${the.wsUrl}?v=1`, { origin: ORIGIN, token: the.alice.idToken });
    open.push(s);
    expect(s.frames[0]?.type).toBe('ready');
  });

  it('refuses a handshake from another origin', async () => {
    await expect(
      TestSocket.open(the.wsUrl, { origin: 'https://evil.example', token: the.alice.idToken }),
    ).rejects.toThrow(/403/);
  });

  it('closes with 4401 when no auth frame comes within 5 s', async () => {
    const s = await raw({ origin: ORIGIN });
    const started = Date.now();
    const closed = await s.closed;
    expect(closed.code).toBe(4401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(WsLimits.authTimeoutMs - 200);
  }, 10_000);

  it('closes with 4401 on a bad token', async () => {
    const s = await raw({ origin: ORIGIN });
    s.send({ type: 'auth', token: 'not-a-token' });
    expect((await s.closed).code).toBe(4401);
    expect(s.all('error')[0]?.code).toBe('UNAUTHENTICATED');
  });

  it('closes with 4401 when the first frame is not auth, or not even JSON', async () => {
    const a = await raw({ origin: ORIGIN });
    a.send({ type: 'ping' });
    expect((await a.closed).code).toBe(4401);
    const b = await raw({ origin: ORIGIN });
    b.send('{nope');
    expect((await b.closed).code).toBe(4401);
    expect(b.all('error')[0]?.code).toBe('BAD_FRAME');
  });

  it('takes a fresh token for the same account and refuses another account', async () => {
    const s = await connect(the.alice);
    const again = await the.t.ctx.identity.issueSession(the.alice.uid, { kind: 'web', name: 'again' });
    s.send({ type: 'auth', token: again.idToken });
    await s.next('ready', undefined, 5_000, 1);
    s.send({ type: 'auth', token: the.bob.idToken });
    expect((await s.closed).code).toBe(4401);
  });
});

describe('bad frames get an error frame, and the socket lives on', () => {
  it('answers invalid JSON, unknown types, missing fields and binary frames', async () => {
    const s = await connect(the.alice);
    s.send('this is not json');
    expect(await s.next('error')).toMatchObject({ code: 'BAD_FRAME' });
    s.send({ type: 'chat.explode', requestId: 'x1' });
    const frame = await s.next('error', (f) => f.requestId === 'x1');
    expect(frame).toMatchObject({ code: 'BAD_FRAME' });
    // One error model: the frame's code is an API code, with the status the HTTP body would carry.
    expect(ErrorCodes).toContain(frame.code);
    expect(ErrorStatus[frame.code]).toBe(400);
    s.send({ type: 'chat.send', requestId: 'x2', chatId: null });
    const missing = await s.next('error', (f) => f.requestId === 'x2');
    expect(missing.code).toBe('VALIDATION_FAILED');
    expect(missing.message).toContain('content');
    s.send({ type: 'chat.stop', chatId: 'not-a-uuid' });
    expect((await s.next('error', (f) => f.message.includes('chatId'))).code).toBe('VALIDATION_FAILED');
    s.send({ type: 'ping', extra: true });
    expect((await s.next('error', (f) => f.message.includes('ping'))).code).toBe('VALIDATION_FAILED');
    s.send(42);
    s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await s.next('error', (f) => f.message.includes('JSON text'));
    s.send({ type: 'ping', id: 'still-alive' });
    expect(await s.next('pong')).toEqual({ type: 'pong', id: 'still-alive' });
    expect(the.fx.chatRequests()).toHaveLength(0);
  });

  it('closes with 1009 on a frame over 1 MiB', async () => {
    const s = await connect(the.alice);
    s.send({
      type: 'chat.send',
      requestId: 'big',
      chatId: null,
      content: 'x'.repeat(WsLimits.maxFrameBytes + 10),
    });
    expect((await s.closed).code).toBe(1009);
  });

  it('refuses a message over the content limit with an error frame', async () => {
    const s = await connect(the.alice);
    s.send({
      type: 'chat.send',
      requestId: 'long',
      chatId: null,
      content: 'x'.repeat(WsLimits.maxContentChars + 1),
    });
    expect((await s.next('error', (f) => f.requestId === 'long')).code).toBe('VALIDATION_FAILED');
  });
});

describe('who sees what', () => {
  it("every tab of the user sees the stream live; another user's socket sees nothing", async () => {
    const tab1 = await connect(the.alice);
    const tab2 = await connect(the.alice);
    const other = await connect(the.bob);
    const r = await exchange(tab1, { content: 'Shared with my tabs' });
    await tab2.next('message.done', (f) => f.messageId === r.assistant.messageId);
    expect(tab2.textOf(r.assistant.messageId)).toBe(ANSWER);
    expect(tab2.all('message.created').map((f) => f.message.messageId)).toEqual([
      r.user.messageId,
      r.assistant.messageId,
    ]);
    // A round trip of Bob's own: a frame meant for Alice's chat would have reached him before it.
    other.send({ type: 'chat.subscribe', requestId: 'mine', chatId: crypto.randomUUID() });
    await other.next('error', (f) => f.requestId === 'mine');
    expect(other.frames.map((f) => f.type)).toEqual(['ready', 'error']);
  });

  it("cannot send to, regenerate, edit, stop or subscribe to another user's chat", async () => {
    const s = await connect(the.alice);
    const mine = await exchange(s, { content: 'Private' });
    the.fx.reset();
    for (const who of [the.bob, the.outsider]) {
      const intruder = await connect(who);
      const frames = [
        { type: 'chat.send', requestId: 'i1', chatId: mine.chatId, content: 'hi' },
        {
          type: 'chat.regenerate',
          requestId: 'i2',
          chatId: mine.chatId,
          messageId: mine.assistant.messageId,
        },
        {
          type: 'chat.edit',
          requestId: 'i3',
          chatId: mine.chatId,
          messageId: mine.user.messageId,
          content: 'x',
        },
        { type: 'chat.stop', requestId: 'i4', chatId: mine.chatId },
        { type: 'chat.subscribe', requestId: 'i5', chatId: mine.chatId },
      ];
      for (const f of frames) {
        intruder.send(f);
        const err = await intruder.next('error', (e) => e.requestId === f.requestId);
        expect(err.code).toBe('NOT_FOUND');
      }
      expect(intruder.all('message.created')).toEqual([]);
    }
    expect(the.fx.chatRequests()).toHaveLength(0);
    const rows = await the.t.ctx.db.select().from(messages).where(eq(messages.chatId, mine.chatId));
    expect(rows).toHaveLength(2);
  });

  it('refuses a santito of another domain', async () => {
    const foreign = await makeSantito(the.t.ctx, the.outsider);
    const s = await connect(the.alice);
    s.send({ type: 'chat.send', requestId: 'foreign', chatId: null, agentId: foreign.id, content: 'hi' });
    expect((await s.next('error', (f) => f.requestId === 'foreign')).code).toBe('VALIDATION_FAILED');
  });
});

describe('revocation is immediate', () => {
  it('deactivating the user closes their sockets at once (4403)', async () => {
    const victim = await makeUser(the.t.ctx, { domain: the.dom });
    const s = await connect(victim);
    await the.t.ctx.db.update(users).set({ active: false }).where(eq(users.id, victim.user.id));
    const started = Date.now();
    await the.t.ctx.services.callerStates.invalidate({ email: victim.user.id });
    expect((await s.closed).code).toBe(4403);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('revoking the session closes the socket (4401); other users stay connected', async () => {
    const victim = await makeUser(the.t.ctx, { domain: the.dom });
    const s = await connect(victim);
    const bystander = await connect(the.bob);
    await the.t.ctx.identity.revokeSession(victim.sessionId, 'test');
    expect((await s.closed).code).toBe(4401);
    bystander.send({ type: 'ping', id: 'ok' });
    await bystander.next('pong');
  });
});

// Two replicas behind a load balancer: one user's tabs land on different processes, joined by
// Redis (CI sets REDIS_URL for every test project). Without Redis one process is the whole app.
describeWithRedis('across replicas (Redis)', () => {
  const replica = replicaOf(() => the.t);
  const connectToReplica = async (who: TestUser) => {
    const s = await TestSocket.open(replica.wsUrl, { origin: ORIGIN, token: who.idToken });
    open.push(s);
    return s;
  };

  it('a tab on another replica sees the stream live, and can stop the next one', async () => {
    const here = await connect(the.alice);
    const there = await connectToReplica(the.alice);
    const r = await exchange(here, { content: 'Across replicas' });
    await there.next('message.done', (f) => f.messageId === r.assistant.messageId);
    expect(there.textOf(r.assistant.messageId)).toBe(ANSWER);

    the.fx.setScript({ text: ANSWER, delayMs: 50 });
    here.send({ type: 'chat.send', requestId: 'across-stop', chatId: r.chatId, content: 'Again' });
    const started = await there.next(
      'message.created',
      (f) => f.requestId === 'across-stop' && f.message.role === 'assistant',
    );
    there.send({ type: 'chat.stop', chatId: r.chatId });
    const row = await waitForStored(started.message.messageId);
    expect(row?.status).toBe('stopped');
  });

  it('deactivating a user on one replica closes their socket on the other at once', async () => {
    const victim = await makeUser(the.t.ctx, { domain: the.dom });
    const there = await connectToReplica(victim);
    const url = `/api/v1/user/${encodeURIComponent(victim.user.id)}`;
    const current = (await the.t.app.inject({ method: 'GET', url, headers: the.admin.headers })).json();
    const res = await the.t.app.inject({
      method: 'PUT',
      url,
      headers: the.admin.headers,
      payload: { ...current, active: false },
    });
    expect(res.statusCode).toBe(200);
    // Deactivation disables the identity account too: whichever of the two the replica's check
    // meets first closes the socket, as forbidden (4403) or as no longer authenticated (4401).
    expect([4401, 4403]).toContain((await there.closed).code);
  });
});

describe('no provider', () => {
  it('answers NO_PROVIDER with a message for an Admin, and stores nothing', async () => {
    const s = await connect(the.lonely);
    s.send({ type: 'chat.send', requestId: 'np', chatId: null, content: 'Anyone there?' });
    const err = await s.next('error', (f) => f.requestId === 'np');
    expect(err).toMatchObject({ code: 'NO_PROVIDER', message: NO_PROVIDER_MESSAGE });
    expect(err.message).toContain('Settings → AI models');
    // The very AppError an HTTP route would answer with, code and message alike.
    const body = ErrorBodySchema.parse(noProvider().toBody());
    expect({ code: err.code, message: err.message }).toEqual({
      code: body.error.code,
      message: body.error.message,
    });
    const rows = await the.t.ctx.db.select().from(chats).where(eq(chats.userId, the.lonely.user.id));
    expect(rows).toEqual([]);
  });

  it('names an unknown model', async () => {
    const s = await connect(the.alice);
    s.send({
      type: 'chat.send',
      requestId: 'um',
      chatId: null,
      content: 'hi',
      params: { model: 'nope:missing' },
    });
    const err = await s.next('error', (f) => f.requestId === 'um');
    expect(err.code).toBe('MODEL_UNAVAILABLE');
    expect(err.message).toContain('nope:missing');
  });
});

describe('messages as the REST API shows them', () => {
  it('lists the stored answer with status and usage', async () => {
    const s = await connect(the.alice);
    const r = await exchange(s, { content: 'Through REST' });
    const res = await the.t.app.inject({
      url: `/api/v1/chats/${r.chatId}/messages`,
      headers: the.alice.headers,
    });
    const list = res.json() as Message[];
    expect(list.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(list[1]?.usage).toEqual({ inputTokens: 2, outputTokens: 14, totalTokens: 16 });
  });
});
