import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  EmbeddedLauncherSchema,
  ErrorBodySchema,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestUser } from '../../test/factories.ts';

const SITE = 'https://shop.example.com';
let t: TestApp;
let web: string;
let admin: TestUser;

async function makeEmbed(body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/virtual_account',
    headers: admin.headers,
    payload: {
      displayName: 'Loja',
      color: '#aa0000',
      allowedOrigins: [SITE, 'http://127.0.0.1:8080'],
      ...body,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return VirtualAccountWithSecretSchema.parse(res.json()).virtualAccountId;
}

beforeAll(async () => {
  web = mkdtempSync(path.join(tmpdir(), 'assistente-web-'));
  mkdirSync(path.join(web, 'assets'));
  writeFileSync(
    path.join(web, 'index.html'),
    '<!doctype html><title>Assistente</title><div id="root"></div><script src="/assets/index.js"></script>',
  );
  // The embedded chat's own page, a build of its own (apps/web/vite.config.ts).
  writeFileSync(
    path.join(web, 'embedded.html'),
    '<!doctype html><title>Assistente</title><div id="root"></div><script src="/assets/embedded.js"></script>',
  );
  writeFileSync(path.join(web, 'embed.js'), '(()=>{})();');
  t = await buildTestApp({ WEB_DIST: web });
  const domain = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain, role: 'Admin' });
});

afterAll(async () => {
  await t?.close();
  rmSync(web, { recursive: true, force: true });
});

describe('embedded pages', () => {
  it('may be framed by the embed’s allowed sites only', async () => {
    const id = await makeEmbed();
    for (const url of [`/embedded/${id}/chats`, `/en/embedded/${id}/chats/c1`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain(`frame-ancestors ${SITE} http://127.0.0.1:8080`);
      expect(csp).not.toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBeUndefined();
      // The embedded chat's page, not the app's.
      expect(res.body).toContain('/assets/embedded.js');
      expect(res.body).not.toContain('/assets/index.js');
      // The iframe learns from the page which sites may hand it a session.
      expect(res.body).toContain(
        `<meta name="assistente-embed-origins" content="[&quot;${SITE}&quot;,&quot;http://127.0.0.1:8080&quot;]">`,
      );
    }
    const none = await makeEmbed({ allowedOrigins: [] });
    const res = await t.app.inject({ method: 'GET', url: `/embedded/${none}/chats` });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('are 404 for an unknown or paused embed, and stay unframeable', async () => {
    const paused = await makeEmbed({ active: false });
    for (const url of ['/embedded/va-nope/chats', `/embedded/${paused}/chats`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      // The embedded page with no origins: it shows its 404 page (the app's would offer a sign-in).
      expect(res.body).toContain('/assets/embedded.js');
      expect(res.body).not.toContain('assistente-embed-origins');
    }
  });

  it('other pages keep frame-ancestors none, and are the app’s', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/chats' });
    expect(res.body).toContain('/assets/index.js');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('the launcher', () => {
  it('/embed.js may be loaded by other sites', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/embed.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('learns its name and colour on an allowed site only; another site reads why not', async () => {
    const id = await makeEmbed();
    const ok = await t.app.inject({
      method: 'GET',
      url: `/api/v1/embedded/${id}/launcher`,
      headers: { origin: SITE },
    });
    expect(EmbeddedLauncherSchema.strict().parse(ok.json())).toEqual({
      displayName: 'Loja',
      color: '#aa0000',
    });
    expect(ok.headers['access-control-allow-origin']).toBe(SITE);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/embedded/${id}/launcher`,
      headers: { origin: 'https://evil.example.com' },
    });
    expect(bad.statusCode).toBe(403);
    expect(ErrorBodySchema.parse(bad.json()).error.code).toBe('ORIGIN_NOT_ALLOWED');
    // Readable by that site: its embed.js tells the site's developer why no launcher shows.
    expect(bad.headers['access-control-allow-origin']).toBe('https://evil.example.com');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/embedded/nope/launcher',
          headers: { origin: SITE },
        })
      ).statusCode,
    ).toBe(404);
  });
});
