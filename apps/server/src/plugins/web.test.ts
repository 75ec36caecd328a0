import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AttachmentLimits } from '@assistente/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { registerErrorHandler } from './errors.ts';
import { registerWeb, runtimeConfig } from './web.ts';

let app: FastifyInstance;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, 'builds'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script src="/assets/app.js"></script></body></html>',
  );
  writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'builds', 'latest.json'), JSON.stringify({ id: 'b123', timestamp: 1 }));
  writeFileSync(path.join(dist, 'assistente-vscode-1.2.3.vsix'), 'PK-fake-vsix');
  const config = loadConfig({
    WEB_DIST: dist,
    PUBLIC_URL: 'https://chat.acme.com',
    EDITOR_VSIX: path.join(dist, 'assistente-vscode-1.2.3.vsix'),
  });
  app = Fastify();
  registerErrorHandler(app);
  await registerWeb(app, { config } as AppContext);
  app.get('/api/v1/ping', async () => ({ ok: true }));
});

afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('web serving', () => {
  it('offers the editor extension as a download', async () => {
    const res = await app.inject({ method: 'GET', url: '/downloads/assistente-vscode.vsix' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="assistente-vscode-1.2.3.vsix"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe('PK-fake-vsix');
  });

  it('answers 404 in the error shape when no extension was built', async () => {
    const bare = Fastify();
    registerErrorHandler(bare);
    const config = loadConfig({ WEB_DIST: dist, EDITOR_VSIX: path.join(dist, 'missing.vsix') });
    await registerWeb(bare, { config } as AppContext);
    const res = await bare.inject({ method: 'GET', url: '/downloads/assistente-vscode.vsix' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    await bare.close();
  });

  it('serves the app shell for every route of the table, with and without locale prefix', async () => {
    for (const url of [
      '/',
      '/chats',
      '/chats/abc',
      '/pt-BR/users',
      '/en',
      '/es/auth/login',
      // A standalone page (an MCP sign-in popup's end), outside the route table.
      '/integration/mcp-connected',
      // Embedded pages depend on their embed: modules/embedded/pages.integration.test.ts.
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers an unknown path with status 404 and the shell, so the app shows its error page', async () => {
    const res = await app.inject('/nowhere/at/all');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<div id="root">');
  });

  it('gives bots a bare 404', async () => {
    const res = await app.inject({
      url: '/nowhere',
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<script');
  });

  it('removes a trailing slash with a 308 that keeps the query', async () => {
    const res = await app.inject('/chats/?q=hello&x=1');
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe('/chats?q=hello&x=1');
    expect((await app.inject('/pt-BR/users//')).headers.location).toBe('/pt-BR/users');
  });

  it('leaves API paths alone: no redirect, JSON 404 in the error shape', async () => {
    const res = await app.inject('/api/v1/agents/chat/');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { status: 404, code: 'NOT_FOUND', message: 'Route GET /api/v1/agents/chat/ not found' },
    });
    const post = await app.inject({ method: 'POST', url: '/chats' });
    expect(post.statusCode).toBe(404);
    expect(post.json().error.code).toBe('NOT_FOUND');
  });

  it('serves hashed assets as immutable', async () => {
    const res = await app.inject('/assets/app.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('publishes the runtime configuration with the build id', async () => {
    const res = await app.inject('/runtime-config.json');
    const body = res.json();
    expect(body.buildId).toBe('b123');
    expect(body.accountManagerUrl).toBe('https://chat.acme.com');
    expect(body.agentsWsUrl).toBe('wss://chat.acme.com/api/v1/agents/chat/');
    expect(body.identity.baseUrl).toBe('https://chat.acme.com/identity');
    expect(body.editorDeepLink).toBe('vscode://assistente.assistente-vscode/auth-callback');
    expect(body.editorCallbackOrigins).toEqual([]);
    // The browser checks the same upload limit as the server: its default, the contracts' one.
    expect(body.uploadMaxBytes).toBe(AttachmentLimits.maxBytes);
  });

  it('gives the browser the upload limit the server was configured with', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://chat.acme.com',
      UPLOAD_MAX_BYTES: String(25 * 1024 * 1024),
    });
    const published = runtimeConfig({ config } as AppContext, 'b1', 'https://chat.acme.com');
    expect(published.uploadMaxBytes).toBe(25 * 1024 * 1024);
  });
});
