import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  ChatSchema,
  EmbeddedConfigSchema,
  type EmbeddedSession,
  EmbeddedSessionSchema,
  ErrorBodySchema,
  type VirtualAccountWithSecret,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats, embeddedVisitors, identitySessions, users } from '../../db/schema/index.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeSantito, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { visitorEmail } from './visitor-ids.ts';

const SITE = 'https://shop.example.com';
const APP_ORIGIN = 'http://localhost:3999';

let fx: LlmFixture;
let t: TestApp;
let wsUrl: string;
let domain: TestDomain;
let admin: TestUser;
let viewer: TestUser;
let santito: { id: string };
let otherSantito: { id: string };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';
function call(method: Method, url: string, headers: Record<string, string> = {}, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** The identity service's renewal, as the embedded page does it. */
const refresh = (refreshToken: string) =>
  call('POST', '/identity/v1/token', {}, { grant_type: 'refresh_token', refresh_token: refreshToken });
const codeOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).error.code;

async function makeEmbed(body: Record<string, unknown> = {}): Promise<VirtualAccountWithSecret> {
  const res = await call('POST', '/api/v1/virtual_account', admin.headers, {
    displayName: 'Loja',
    allowedOrigins: [SITE],
    agentId: santito.id,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return VirtualAccountWithSecretSchema.parse(res.json());
}

async function session(
  id: string,
  body: unknown = {},
  origin: string | null = SITE,
): Promise<EmbeddedSession> {
  const res = await call('POST', `/api/v1/embedded/${id}/session`, origin ? { origin } : {}, body);
  expect(res.statusCode, res.body).toBe(200);
  return EmbeddedSessionSchema.strict().parse(res.json());
}

const sign = (secret: string, id: string, ts: number) =>
  createHmac('sha256', secret).update(`${id}.${ts}`).digest('hex');
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  fx = await startLlmFixture({ script: { text: 'Olá, visitante!', delayMs: 5 } });
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}` });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/agents/chat/`;
  domain = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain, role: 'Admin' });
  viewer = await makeUser(t.ctx, { domain });
  const res = await call('POST', '/api/v1/settings/providers', admin.headers, {
    kind: 'openai-compatible',
    label: 'Fixture',
    baseUrl: fx.baseUrl,
    models: ['fixture-small'],
  });
  expect(res.statusCode, res.body).toBe(201);
  santito = await makeSantito(t.ctx, admin, { name: 'Atendente' });
  otherSantito = await makeSantito(t.ctx, admin, { name: 'Interno' });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
}, 60_000);

describe('visitor sessions: which sites', () => {
  it('an allowed site gets a session whose token is for the embed only', async () => {
    const va = await makeEmbed({ welcome: 'Bem-vindo!' });
    const res = await call('POST', `/api/v1/embedded/${va.virtualAccountId}/session`, { origin: SITE }, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(res.headers['cache-control']).toContain('no-store');
    const s = EmbeddedSessionSchema.strict().parse(res.json());
    expect(s.virtualAccount).toMatchObject({
      displayName: 'Loja',
      welcome: 'Bem-vindo!',
      agent: { _id: santito.id },
    });
    expect(s.domain._id).toBe(domain.domain.id);
    const claims = decodeJwt(s.idToken);
    expect(claims.aud).toBe('embedded');
    expect(claims.sub).toBe(s.user._id);
    expect(claims.sub).toMatch(new RegExp(`^va:${va.virtualAccountId}:[A-Za-z0-9_-]{16,}$`));
  });

  it('refuses a site not allowed, and a request without Origin; answers preflights for allowed sites only', async () => {
    const va = await makeEmbed();
    const url = `/api/v1/embedded/${va.virtualAccountId}/session`;
    for (const headers of [
      { origin: 'https://evil.example.com' },
      {},
      { origin: `${SITE}/` },
      { origin: 'null' },
    ]) {
      const res = await call('POST', url, headers as Record<string, string>, {});
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(codeOf(res)).toBe('ORIGIN_NOT_ALLOWED');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const ok = await call('OPTIONS', url, { origin: SITE, 'access-control-request-method': 'POST' });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(SITE);
    const bad = await call('OPTIONS', url, { origin: 'https://evil.example.com' });
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();

    const empty = await makeEmbed({ allowedOrigins: [] });
    const none = await call(
      'POST',
      `/api/v1/embedded/${empty.virtualAccountId}/session`,
      { origin: SITE },
      {},
    );
    expect(codeOf(none)).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('an unknown or paused embed is 404', async () => {
    expect((await call('POST', '/api/v1/embedded/va-nope/session', { origin: SITE }, {})).statusCode).toBe(
      404,
    );
    const va = await makeEmbed({ active: false });
    expect(
      (await call('POST', `/api/v1/embedded/${va.virtualAccountId}/session`, { origin: SITE }, {}))
        .statusCode,
    ).toBe(404);
  });
});

describe('visitor sessions: who the visitor is', () => {
  it('anonymous visitors get ids from the server, never their own', async () => {
    const va = await makeEmbed();
    const a = await session(va.virtualAccountId);
    const b = await session(va.virtualAccountId);
    expect(a.user._id).not.toBe(b.user._id);
    const chosen = await call(
      'POST',
      `/api/v1/embedded/${va.virtualAccountId}/session`,
      { origin: SITE },
      { visitor: { id: 'admin', ts: now(), sig: 'a'.repeat(64) } },
    );
    expect(chosen.statusCode).toBe(400);
    expect(
      (await call('POST', `/api/v1/embedded/${va.virtualAccountId}/session`, { origin: SITE }, { x: 1 }))
        .statusCode,
    ).toBe(400);
  });

  it('a session is stored on its first use only: a session never used leaves nothing behind', async () => {
    const va = await makeEmbed();
    const stored = async (uid: string) => ({
      sessions: (await t.ctx.db.select().from(identitySessions).where(eq(identitySessions.uid, uid))).length,
      users: (
        await t.ctx.db
          .select()
          .from(users)
          .where(eq(users.id, visitorEmail(uid)))
      ).length,
      visitors: (
        await t.ctx.db
          .select()
          .from(embeddedVisitors)
          .where(eq(embeddedVisitors.virtualAccountId, va.virtualAccountId))
      ).length,
    });
    const unused = await session(va.virtualAccountId);
    expect(await stored(unused.user._id)).toEqual({ sessions: 0, users: 0, visitors: 0 });
    // Its refresh token is unknown until then: the embedded page asks its site for a new session.
    const early = await refresh(unused.refreshToken);
    expect(early.statusCode).toBe(400);

    // First uses racing each other store one session, one visitor.
    const s = await session(va.virtualAccountId);
    const first = await Promise.all(
      [1, 2, 3].map(() => call('GET', `/api/v1/embedded/${va.virtualAccountId}/config`, bearer(s.idToken))),
    );
    expect(first.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await stored(s.user._id)).toEqual({ sessions: 1, users: 1, visitors: 1 });

    // A session that ended is not stored again by its still-valid token.
    const renewed = await refresh(s.refreshToken);
    expect(renewed.statusCode).toBe(200);
    const replay = await refresh(s.refreshToken);
    expect(replay.statusCode).toBe(200); // the lost-answer grace (docs/ARCHITECTURE.md#identity) …
    const rotated = (renewed.json() as { refresh_token: string }).refresh_token;
    expect((await refresh(rotated)).statusCode).toBe(400); // … whose tripwire ends the session
    expect(
      (await call('GET', `/api/v1/embedded/${va.virtualAccountId}/config`, bearer(s.idToken))).statusCode,
    ).toBe(401);
    expect(await stored(s.user._id)).toEqual({ sessions: 1, users: 1, visitors: 1 });
  });

  it('signed visitors need a fresh, untampered signature with the current secret', async () => {
    const va = await makeEmbed({ identity: 'signed' });
    const id = va.virtualAccountId;
    const url = `/api/v1/embedded/${id}/session`;
    const ts = now();
    const good = {
      id: 'cliente-42',
      name: 'Maria',
      email: 'maria@example.com',
      ts,
      sig: sign(va.secret, 'cliente-42', ts),
    };
    const refused = async (visitor: unknown) => {
      const res = await call('POST', url, { origin: SITE }, visitor === undefined ? {} : { visitor });
      expect(res.statusCode, JSON.stringify(visitor)).toBe(401);
      expect(codeOf(res)).toBe('INVALID_VISITOR_SIGNATURE');
      // The site is allowed: its script can read why its visitor was refused.
      expect(res.headers['access-control-allow-origin']).toBe(SITE);
      return ErrorBodySchema.parse(res.json()).error.message;
    };
    await refused(undefined);
    await refused({ ...good, id: 'cliente-43' });
    await refused({ ...good, ts: ts + 1 });
    await refused({ ...good, sig: sign('another-secret', 'cliente-42', ts) });
    const old = ts - 11 * 60;
    await refused({ ...good, ts: old, sig: sign(va.secret, 'cliente-42', old) });
    const future = ts + 11 * 60;
    await refused({ ...good, ts: future, sig: sign(va.secret, 'cliente-42', future) });
    // Signed in milliseconds (Date.now()): the refusal says what to change.
    const millis = ts * 1000;
    expect(await refused({ ...good, ts: millis, sig: sign(va.secret, 'cliente-42', millis) })).toMatch(
      /milliseconds.*seconds/,
    );

    const s = await session(id, { visitor: good });
    expect(s.user).toEqual({ _id: `va:${id}:cliente-42`, displayName: 'Maria' });
    // The same visitor later is the same visitor (and sees the same chats).
    const again = await session(id, {
      visitor: { ...good, ts: ts + 5, sig: sign(va.secret, 'cliente-42', ts + 5) },
    });
    expect(again.user._id).toBe(s.user._id);
    // A site that renames its visitor renames them here too; a session without a name keeps it.
    const renamed = await session(id, {
      visitor: { ...good, name: 'Maria Souza', ts: ts + 6, sig: sign(va.secret, 'cliente-42', ts + 6) },
    });
    expect(decodeJwt(renamed.idToken).name).toBe('Maria Souza');
    const { name: _unnamed, ...nameless } = good;
    const kept = await session(id, {
      visitor: { ...nameless, ts: ts + 7, sig: sign(va.secret, 'cliente-42', ts + 7) },
    });
    expect(decodeJwt(kept.idToken).name).toBe('Maria Souza');

    const rotated = VirtualAccountWithSecretSchema.parse(
      (await call('POST', `/api/v1/virtual_account/${id}/secret`, admin.headers)).json(),
    );
    await refused(good);
    await session(id, { visitor: { ...good, sig: sign(rotated.secret, 'cliente-42', ts) } });
  });

  it('the token refreshes through the identity service and stays a visitor token', async () => {
    const va = await makeEmbed();
    const s = await session(va.virtualAccountId);
    // First use stores the session (and its refresh token).
    expect(
      (await call('GET', `/api/v1/embedded/${va.virtualAccountId}/config`, bearer(s.idToken))).statusCode,
    ).toBe(200);
    const res = await refresh(s.refreshToken);
    expect(res.statusCode, res.body).toBe(200);
    const idToken = (res.json() as { id_token: string }).id_token;
    expect(decodeJwt(idToken)).toMatchObject({ aud: 'embedded', sub: s.user._id });
    const config = await call('GET', `/api/v1/embedded/${va.virtualAccountId}/config`, bearer(idToken));
    expect(config.statusCode).toBe(200);
  });
});

describe('what a visitor token reaches', () => {
  it('its embed’s config, not another embed’s; a user token is refused there', async () => {
    const va = await makeEmbed({ welcome: 'Oi' });
    const other = await makeEmbed();
    const s = await session(va.virtualAccountId);
    const res = await call('GET', `/api/v1/embedded/${va.virtualAccountId}/config`, bearer(s.idToken));
    expect(EmbeddedConfigSchema.strict().parse(res.json())).toMatchObject({
      welcome: 'Oi',
      color: '#1565c0',
    });
    expect(
      (await call('GET', `/api/v1/embedded/${other.virtualAccountId}/config`, bearer(s.idToken))).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/v1/embedded/${va.virtualAccountId}/config`, viewer.headers)).statusCode,
    ).toBe(401);
  });

  it('its own chats only, always with the embed’s santito and never with its own parameters', async () => {
    const va = await makeEmbed();
    const a = await session(va.virtualAccountId);
    const b = await session(va.virtualAccountId);
    const made = await call('POST', '/api/v1/chats', bearer(a.idToken), {
      title: 'Dúvida',
      agentId: otherSantito.id,
    });
    expect(made.statusCode, made.body).toBe(201);
    const chat = ChatSchema.parse(made.json());
    expect(chat.agentId).toBe(santito.id);

    const mine = await call('GET', '/api/v1/chats', bearer(a.idToken));
    expect((mine.json() as unknown[]).map((c) => ChatSchema.parse(c).chatId)).toEqual([chat.chatId]);
    expect((await call('GET', '/api/v1/chats', bearer(b.idToken))).json()).toEqual([]);
    expect((await call('GET', `/api/v1/chats/${chat.chatId}`, bearer(b.idToken))).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/chats/${chat.chatId}`, viewer.headers)).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/chats', viewer.headers)).json()).toEqual([]);

    const params = await call('PUT', `/api/v1/chats/${chat.chatId}`, bearer(a.idToken), {
      params: { temperature: 2 },
    });
    expect(params.statusCode).toBe(403);
    const renamed = await call('PUT', `/api/v1/chats/${chat.chatId}`, bearer(a.idToken), { title: 'Outra' });
    expect(ChatSchema.parse(renamed.json()).title).toBe('Outra');

    // Visitors never appear among the domain's users.
    const list = await call('GET', '/api/v1/user?limit=200', admin.headers);
    expect(list.body).not.toContain('visitors.invalid');
    // Nor can anyone read, change or delete a visitor's row by its id.
    const superAdmin = await makeUser(t.ctx, { domain, role: 'SuperAdmin' });
    const row = `/api/v1/user/${encodeURIComponent(visitorEmail(a.user._id))}`;
    const rowId = visitorEmail(a.user._id);
    const own = (
      await call('GET', `/api/v1/user/${encodeURIComponent(admin.user.id)}`, admin.headers)
    ).json();
    const update = { ...(own as object), _id: rowId, email: rowId, displayName: 'X' };
    for (const who of [admin, superAdmin]) {
      expect((await call('GET', row, who.headers)).statusCode).toBe(404);
      expect((await call('PUT', row, who.headers, update)).statusCode).toBe(404);
      expect((await call('DELETE', row, who.headers)).statusCode).toBe(404);
    }
  });

  it('no operation outside the embedded surface answers 2xx to a visitor token', async () => {
    const va = await makeEmbed();
    const s = await session(va.virtualAccountId);
    const doc = (await call('GET', '/api/openapi.json')).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    // A citation's document is a visitor's to open too (when the embed's santito cites it).
    const embeddedSurface = (path: string) =>
      path.startsWith('/api/v1/chats') ||
      path.startsWith('/api/v1/embedded/') ||
      path === '/api/v1/integration/knowledge/{id}/documents/{documentId}/file';
    const leaks: string[] = [];
    let walked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.security || embeddedSurface(path)) continue;
        const url = path.replace(/\{[^}]+\}/g, (m) => (m === '{id}' ? va.virtualAccountId : 'x1'));
        const res = await call(
          method.toUpperCase() as Method,
          url,
          { ...bearer(s.idToken), 'content-type': 'application/json' },
          {},
        );
        walked++;
        if (res.statusCode < 300) leaks.push(`${method.toUpperCase()} ${path} → ${res.statusCode}`);
        else expect(res.statusCode, `${method} ${path}`).toBe(401);
      }
    }
    expect(leaks).toEqual([]);
    expect(walked).toBeGreaterThan(30);
  });
});

describe('chats a visitor starts over the chats API', () => {
  const start = (token: string, title: string) => call('POST', '/api/v1/chats', bearer(token), { title });
  /** A new chat the visitor starts by sending a message, answered in full: its id. */
  async function talk(token: string): Promise<string> {
    const ws = await TestSocket.open(wsUrl, { origin: APP_ORIGIN, token });
    try {
      ws.send({ type: 'chat.send', requestId: 't1', chatId: null, content: 'Oi' });
      const answer = await ws.next(
        'message.created',
        (f) => f.requestId === 't1' && f.message.role === 'assistant',
      );
      await ws.next('message.done', (f) => f.messageId === answer.message.messageId);
      return answer.chatId;
    } finally {
      await ws.close();
    }
  }
  const chatsOf = async (s: EmbeddedSession) =>
    t.ctx.db
      .select({ id: chats.id })
      .from(chats)
      .where(eq(chats.userId, visitorEmail(s.user._id)));

  it('count against the embed’s limits, per visitor and per address, and store nothing once refused', async () => {
    // The day's limit: the minute's window could roll over mid-test.
    const va = await makeEmbed({ limits: { messagesPerMinute: 100, messagesPerDay: 2 } });
    const s = await session(va.virtualAccountId);
    expect((await start(s.idToken, 'Um')).statusCode).toBe(201);
    expect((await start(s.idToken, 'Dois')).statusCode).toBe(201);
    const refused = await start(s.idToken, 'Três');
    expect(refused.statusCode).toBe(429);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(await chatsOf(s)).toHaveLength(2);

    // A new session is a new visitor, but from the same address.
    const again = await session(va.virtualAccountId);
    const fresh = await start(again.idToken, 'Quatro');
    expect(fresh.statusCode).toBe(429);
    expect(await chatsOf(again)).toHaveLength(0);

    // Chats have counters of their own: the visitor may still send the day's messages.
    await talk(s.idToken);
  });

  it('a visitor’s chats left without a message are purged like drafts, titled or not', async () => {
    const va = await makeEmbed();
    const s = await session(va.virtualAccountId);
    const empty = ChatSchema.parse((await start(s.idToken, 'Vazio')).json());
    const talkedId = await talk(s.idToken);
    const personal = ChatSchema.parse(
      (await call('POST', '/api/v1/chats', viewer.headers, { title: 'Meu' })).json(),
    );
    const old = new Date(Date.now() - 25 * 60 * 60_000);
    for (const id of [empty.chatId, talkedId, personal.chatId]) {
      await t.ctx.db.update(chats).set({ createdAt: old }).where(eq(chats.id, id));
    }

    await t.ctx.services.chats.purgeDrafts();
    const left = new Set((await t.ctx.db.select({ id: chats.id }).from(chats)).map((c) => c.id));
    expect(left.has(empty.chatId)).toBe(false);
    expect(left.has(talkedId)).toBe(true);
    expect(left.has(personal.chatId)).toBe(true);
  });
});

describe('the agents websocket for visitors', () => {
  it('answers with the embed’s santito, within the embed’s limits', async () => {
    // The day's limit: the minute's window could roll over mid-test.
    const va = await makeEmbed({ limits: { messagesPerMinute: 100, messagesPerDay: 2 } });
    const s = await session(va.virtualAccountId);
    const ws = await TestSocket.open(wsUrl, { origin: APP_ORIGIN, token: s.idToken });
    try {
      ws.send({
        type: 'chat.send',
        requestId: 'r1',
        chatId: null,
        content: 'Oi',
        agentId: otherSantito.id,
        params: { temperature: 1.5, model: 'fixture:fixture-small' },
      });
      const answer = await ws.next(
        'message.created',
        (f) => f.requestId === 'r1' && f.message.role === 'assistant',
      );
      const done = await ws.next('message.done', (f) => f.messageId === answer.message.messageId);
      expect(done.status).toBe('complete');
      const chat = ChatSchema.parse(
        (await call('GET', `/api/v1/chats/${answer.chatId}`, bearer(s.idToken))).json(),
      );
      expect(chat.agentId).toBe(santito.id);

      ws.send({ type: 'chat.send', requestId: 'r2', chatId: answer.chatId, content: 'De novo' });
      await ws.next('message.created', (f) => f.requestId === 'r2' && f.message.role === 'assistant');
      ws.send({ type: 'chat.send', requestId: 'r3', chatId: answer.chatId, content: 'Mais uma' });
      expect((await ws.next('error', (f) => f.requestId === 'r3')).code).toBe('RATE_LIMITED');

      // Another visitor from the same address shares the per-IP limit.
      const other = await session(va.virtualAccountId);
      const ws2 = await TestSocket.open(wsUrl, { origin: APP_ORIGIN, token: other.idToken });
      ws2.send({ type: 'chat.send', requestId: 'o1', chatId: null, content: 'Oi' });
      expect((await ws2.next('error', (f) => f.requestId === 'o1')).code).toBe('RATE_LIMITED');
      await ws2.close();

      const stats = (
        await call('GET', `/api/v1/virtual_account/${va.virtualAccountId}`, admin.headers)
      ).json() as {
        stats: { visitors: number; chats: number; messages: number };
      };
      expect(stats.stats).toEqual({ visitors: 2, chats: 1, messages: 2 });
    } finally {
      await ws.close();
    }
  });

  it('the per-minute limit refuses the message over it', async () => {
    // Minutes are fixed windows: start well inside one.
    while (Date.now() % 60_000 > 45_000) await new Promise((r) => setTimeout(r, 500));
    const va = await makeEmbed({ agentId: null, limits: { messagesPerMinute: 1, messagesPerDay: 100 } });
    const s = await session(va.virtualAccountId);
    const ws = await TestSocket.open(wsUrl, { origin: APP_ORIGIN, token: s.idToken });
    try {
      ws.send({ type: 'chat.send', requestId: 'm1', chatId: null, content: 'Oi' });
      await ws.next('message.created', (f) => f.requestId === 'm1' && f.message.role === 'assistant');
      ws.send({ type: 'chat.send', requestId: 'm2', chatId: null, content: 'Oi de novo' });
      const refused = await ws.next('error', (f) => f.requestId === 'm2');
      expect(refused.code).toBe('RATE_LIMITED');
    } finally {
      await ws.close();
    }
  });

  it('a foreign page cannot open the socket', async () => {
    await expect(TestSocket.open(wsUrl, { origin: SITE })).rejects.toThrow(/403/);
  });

  it('pausing an embed closes its visitors’ sockets and refuses their tokens at once; deleting it too', async () => {
    const va = await makeEmbed();
    const id = va.virtualAccountId;
    const s = await session(id);
    const ws = await TestSocket.open(wsUrl, { origin: APP_ORIGIN, token: s.idToken });
    const pause = await call('PUT', `/api/v1/virtual_account/${id}`, admin.headers, { active: false });
    expect(pause.statusCode).toBe(200);
    const closed = await ws.closed;
    expect(closed.code).toBe(4401);
    expect((await call('GET', `/api/v1/embedded/${id}/config`, bearer(s.idToken))).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/chats', bearer(s.idToken))).statusCode).toBe(401);

    await call('PUT', `/api/v1/virtual_account/${id}`, admin.headers, { active: true });
    expect((await call('GET', `/api/v1/embedded/${id}/config`, bearer(s.idToken))).statusCode).toBe(200);
    await call('POST', '/api/v1/chats', bearer(s.idToken), {});

    expect((await call('DELETE', `/api/v1/virtual_account/${id}`, admin.headers)).statusCode).toBe(204);
    expect((await call('GET', '/api/v1/chats', bearer(s.idToken))).statusCode).toBe(401);
    expect((await refresh(s.refreshToken)).statusCode).toBe(400);
  });
});
