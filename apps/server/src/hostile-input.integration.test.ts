import type { AddressInfo } from 'node:net';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats, departments, messages } from './db/schema/index.ts';
import { TestSocket } from './test/agents-client.ts';
import { buildTestApp, type TestApp } from './test/app.ts';
import { makeUser, type TestUser } from './test/factories.ts';

/** A NUL character cannot be stored in PostgreSQL text: every route and frame refuses it with a 4xx. */
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeUser(t.ctx, { role: 'Admin' });
});

afterAll(async () => {
  await t?.close();
});

const tableCount = async (table: typeof chats | typeof departments | typeof messages) =>
  (await t.ctx.db.select({ n: count() }).from(table))[0]?.n ?? 0;

describe('a malformed upload', () => {
  it('truncated, without a boundary or plain garbage answers 400 and stores nothing', async () => {
    const chat = await t.app.inject({
      method: 'POST',
      url: '/api/v1/chats',
      headers: admin.headers,
      payload: { title: 'uploads' },
    });
    const chatId = chat.json().chatId as string;
    const truncated =
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello wor';
    for (const [type, payload] of [
      ['multipart/form-data; boundary=XYZ', truncated],
      ['multipart/form-data', 'garbage'],
      ['multipart/form-data; boundary=XYZ', '--XYZ\r\nbroken header\r\n\r\n'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/chats/${chatId}/attachments`,
        headers: { ...admin.headers, 'content-type': type },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    }
  });
});

describe('an address the router refuses', () => {
  it('a path segment over the router limit answers 400 in the API shape, not the framework’s', async () => {
    const res = await t.app.inject({
      url: `/api/v1/user/${'x'.repeat(600)}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { status: 400, code: 'BAD_REQUEST', message: 'A part of the address is too long' },
    });
  });
});

describe('a NUL character', () => {
  it('in a body, a search query or a path answers 400 in the API shape and stores nothing', async () => {
    const before = { chats: await tableCount(chats), departments: await tableCount(departments) };
    const cases: Array<{ method: 'GET' | 'POST' | 'PUT'; url: string; payload?: object }> = [
      { method: 'POST', url: '/api/v1/chats', payload: { title: 'a\0b' } },
      { method: 'GET', url: '/api/v1/chats?q=a%00b' },
      { method: 'GET', url: '/api/v1/user?q=%00' },
      { method: 'GET', url: '/api/v1/chats/abc%00def' },
      { method: 'POST', url: '/api/v1/department', payload: { displayName: 'Vendas\0' } },
      { method: 'PUT', url: '/api/v1/settings/profile', payload: { displayName: '\0' } },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ ...c, headers: admin.headers });
      expect(res.statusCode, c.url).toBe(400);
      expect(res.json().error, c.url).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    }
    expect({ chats: await tableCount(chats), departments: await tableCount(departments) }).toEqual(before);
  });

  it('in the identity service answers its own 400 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/identity/v1/accounts:signInWithPassword',
      payload: { email: `${admin.user.email}\0`, password: 'x', returnSecureToken: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe(400);
  });

  it('in a websocket frame answers a VALIDATION_FAILED error frame and stores no message', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const s = await TestSocket.open(`ws://127.0.0.1:${port}/api/v1/agents/chat/`, {
      origin: 'http://localhost:3999',
      token: admin.idToken,
    });
    await s.next('ready');
    const before = await tableCount(messages);
    s.send({ type: 'chat.send', requestId: 'r-nul', content: 'olá\u0000mundo' });
    const err = await s.next('error');
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED', requestId: 'r-nul' });
    expect(await tableCount(messages)).toBe(before);
    await s.close();
  });
});
