import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { RuntimeConfigSchema } from '@assistente/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityServiceImpl } from './modules/identity/service.ts';
import { TestSocket } from './test/agents-client.ts';
import { buildTestApp, type TestApp } from './test/app.ts';
import { makeUser, type TestUser } from './test/factories.ts';

/**
 * Without PUBLIC_URL (the README's first run) the app works at whatever address it is opened at:
 * http://localhost:PORT, http://127.0.0.1:PORT or a LAN address (issue: the printed 127.0.0.1
 * address could not sign in because everything named localhost).
 */
let t: TestApp;
let port: number;
let user: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: '' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  user = await makeUser(t.ctx, { role: 'Viewer' });
});

afterAll(async () => {
  await t?.close();
});

const runtimeConfig = async (host: string) => {
  const res = await t.app.inject({ url: '/runtime-config.json', headers: { host } });
  expect(res.statusCode).toBe(200);
  return RuntimeConfigSchema.parse(res.json());
};

describe('an app without PUBLIC_URL', () => {
  it('names the address the page was opened at in its runtime config', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, '192.168.1.20:3000']) {
      const config = await runtimeConfig(host);
      const origin = `http://${host}`;
      expect(config.appUrl).toBe(origin);
      expect(config.accountManagerUrl).toBe(origin);
      expect(config.chatsManagerUrl).toBe(origin);
      expect(config.codeAssistUrl).toBe(origin);
      expect(config.identity.baseUrl).toBe(`${origin}/identity`);
      expect(config.agentsWsUrl).toBe(`ws://${host}/api/v1/agents/chat/`);
    }
  });

  it('opens the agents websocket from a page at 127.0.0.1 or localhost, never from another site', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const origin = `http://${host}:${port}`;
      const s = await TestSocket.open(`ws://${host}:${port}/api/v1/agents/chat/`, {
        origin,
        token: user.idToken,
      });
      expect((await s.next('ready')).type).toBe('ready');
      s.close();
    }
    await expect(
      TestSocket.open(`ws://127.0.0.1:${port}/api/v1/agents/chat/`, {
        origin: 'http://evil.example',
        token: user.idToken,
      }),
    ).rejects.toThrow(/403/);
    // A page at localhost may not talk to the server through another name it answers to.
    await expect(
      TestSocket.open(`ws://127.0.0.1:${port}/api/v1/agents/chat/`, {
        origin: `http://localhost:${port}`,
        token: user.idToken,
      }),
    ).rejects.toThrow(/403/);
  });

  it('hands the editor a code from the login page at 127.0.0.1, and the editor may redeem it at localhost', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const origin = `http://127.0.0.1:${port}`;
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user_management/login_submit',
      headers: { host: `127.0.0.1:${port}`, origin },
      payload: {
        idToken: user.idToken,
        refreshToken: user.refreshToken,
        state: 's1',
        code_challenge: challenge,
        redirect_uri: `${origin}/pt-BR/auth/login`,
        email: user.user.email,
      },
    });
    expect(submit.statusCode, submit.body).toBe(200);
    const code = new URL((submit.json() as { redirect_uri: string }).redirect_uri).searchParams.get('code');
    const exchange = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user_management/token',
      headers: { host: `localhost:${port}` },
      payload: { code, code_verifier: verifier, redirect_uri: `${origin}/auth/login` },
    });
    expect(exchange.statusCode, exchange.body).toBe(200);

    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user_management/login_submit',
      headers: { host: `127.0.0.1:${port}`, origin: 'http://evil.example' },
      payload: {},
    });
    expect(foreign.statusCode).toBe(403);
  });

  /** The origin of the set-password link in the newest mail of the outbox (no SMTP_URL). */
  const newestMailLinkBase = () => {
    const dir = path.join(t.dataDir, 'outbox');
    const newest = readdirSync(dir).sort().at(-1) ?? '';
    const text = readFileSync(path.join(dir, newest), 'utf8').replace(/=\r?\n/g, '');
    return /(https?:\/\/[^/\s]+)\/auth\/reset-password/.exec(text)?.[1];
  };

  it('mails reset links for the address this machine was reached at, never for a Host header naming another site', async () => {
    const identity = t.ctx.identity as IdentityServiceImpl;
    const linkFor = async (host: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/identity/v1/accounts:sendOobCode',
        headers: { host },
        payload: { requestType: 'PASSWORD_RESET', email: user.user.email },
      });
      expect(res.statusCode).toBe(200);
      await identity.drain();
      return newestMailLinkBase();
    };
    expect(await linkFor(`127.0.0.1:${port}`)).toBe(`http://127.0.0.1:${port}`);
    // Host-header poisoning: the link falls back to the default address.
    expect(await linkFor('evil.example')).toBe(t.ctx.config.publicUrl);
  });

  it('mails invitations, first and resent, for the address the admin works at', async () => {
    const admin = await makeUser(t.ctx, { role: 'Admin' });
    const invite = async (host: string, url: string, payload?: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...admin.headers, host },
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return newestMailLinkBase();
    };
    const email = `invitee-${randomBytes(4).toString('hex')}@${admin.user.domainId}`;
    const created = await invite(`127.0.0.1:${port}`, '/api/v1/user', {
      email,
      displayName: 'Convidada',
      domain: admin.user.domainId,
      department: admin.user.departmentId,
      role: 'Viewer',
    });
    expect(created).toBe(`http://127.0.0.1:${port}`);
    const resent = await invite('evil.example', `/api/v1/user/${encodeURIComponent(email)}/invitation`);
    expect(resent).toBe(t.ctx.config.publicUrl);
    expect(await invite(`127.0.0.1:${port}`, `/api/v1/user/${encodeURIComponent(email)}/invitation`)).toBe(
      `http://127.0.0.1:${port}`,
    );
  });
});

describe('an app with PUBLIC_URL', () => {
  it('names PUBLIC_URL whatever address the page was opened at, so the page can say where to go', async () => {
    const other = await buildTestApp({ PUBLIC_URL: 'https://chat.acme.com' });
    try {
      const res = await other.app.inject({
        url: '/runtime-config.json',
        headers: { host: '127.0.0.1:3000' },
      });
      const config = RuntimeConfigSchema.parse(res.json());
      expect(config.appUrl).toBe('https://chat.acme.com');
      expect(config.accountManagerUrl).toBe('https://chat.acme.com');
    } finally {
      await other.close();
    }
  });
});
