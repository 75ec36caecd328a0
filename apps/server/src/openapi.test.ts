import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './test/app.ts';

interface Operation {
  responses?: Record<string, unknown>;
  security?: unknown[];
}

let t: TestApp;
let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.app.inject('/api/openapi.json');
  expect(res.statusCode).toBe(200);
  doc = res.json();
});

afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI document (GET /api/openapi.json)', () => {
  it('is OpenAPI 3.1 and every API route is declared: who may call it and what it answers', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(t.app.undeclaredRoutes).toEqual([]);
  });

  it('holds every route of every module, each with a success and its error responses', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(40);
    const missing = t.app.apiRoutes.filter((r) => {
      const [method = '', path = ''] = r.split(' ');
      // A prefix's root route is served with and without its trailing slash; documented without.
      const ops = doc.paths[path.replace(/(.)\/$/, '$1')];
      return !ops?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.length > 1 && p.endsWith('/'))).toEqual([]);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const statuses = Object.keys(op.responses ?? {});
        expect(
          // The agents websocket answers 101 Switching Protocols, and nothing else on success.
          statuses.some((s) => /^(101|2..|3..)$/.test(s)),
          `${method} ${path}`,
        ).toBe(true);
        expect(
          statuses.some((s) => s.startsWith('4')),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
  });

  it('says which operations need an id token', () => {
    expect(doc.paths['/api/v1/agent/{id}']?.get?.security).toEqual([{ idToken: [] }]);
  });

  it('has a reference page served from this server', async () => {
    const page = await t.app.inject('/api/docs');
    expect([200, 302]).toContain(page.statusCode);
    const html = await t.app.inject(page.statusCode === 302 ? String(page.headers.location) : '/api/docs');
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('swagger');
    expect(html.body).not.toMatch(/https?:\/\/(?!localhost)[a-z0-9.-]+\/[^"']*\.(js|css)/i);
  });
});
