import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { registerSecurity } from './security.ts';

async function appWith(publicUrl: string) {
  const app = Fastify();
  const config = loadConfig({ PUBLIC_URL: publicUrl, RATE_LIMITS: 'off' });
  await registerSecurity(app, { config, keyPrefix: 't:' } as AppContext);
  app.get('/x', async () => ({ ok: true }));
  app.get('/fail', async () => {
    throw new Error('boom');
  });
  return app;
}

/** On every answer, page or data. */
const HARDENING = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

describe('security headers', () => {
  it('sends a strict CSP and the hardening headers on every response, errors included', async () => {
    const app = await appWith('http://localhost:3000');
    for (const url of ['/x', '/fail', '/missing']) {
      const res = await app.inject(url);
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("object-src 'none'");
      expect(res.headers).toMatchObject(HARDENING);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    await app.close();
  });

  it("gives the services' answers the data set, without a document's policies", async () => {
    const app = await appWith('http://localhost:3000');
    app.get('/api/v1/y', async () => ({ ok: true }));
    app.get('/api/docs/', async () => 'page');
    for (const url of [
      '/api/v1/y',
      '/api/v1/missing',
      '/identity/v1/x',
      '/v1/models',
      '/securetoken.googleapis.com/v1/token',
    ]) {
      const res = await app.inject(url);
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers).toMatchObject(HARDENING);
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(res.headers['x-xss-protection']).toBeUndefined();
    }
    // The API's reference page is a page.
    const docs = await app.inject('/api/docs/');
    expect(docs.headers['content-security-policy']).toContain("script-src 'self'");
    expect(docs.headers['cross-origin-opener-policy']).toBe('same-origin');
    await app.close();
  });

  it('adds HSTS only when served over https', async () => {
    const app = await appWith('https://chat.acme.com');
    for (const url of ['/x', '/api/v1/x']) {
      const res = await app.inject(url);
      expect(res.headers['strict-transport-security'], url).toContain('max-age=31536000');
    }
    await app.close();
  });

  it('rate-limits per caller when limits are on', async () => {
    const app = Fastify();
    const config = loadConfig({ RATE_LIMITS: 'on' });
    await registerSecurity(app, { config, keyPrefix: 't:' } as AppContext);
    app.get('/api/v1/x', async () => ({ ok: true }));
    const res = await app.inject('/api/v1/x');
    expect(res.headers['x-ratelimit-limit']).toBe('1200');
    await app.close();
  });

  it("never limits the web app's own files: one page load fetches dozens of them", async () => {
    const app = Fastify();
    const config = loadConfig({ RATE_LIMITS: 'on' });
    await registerSecurity(app, { config, keyPrefix: 't:' } as AppContext);
    app.get('/assets/*', async () => 'js');
    app.get('/identity/jwks.json', async () => ({ keys: [] }));
    app.post('/api/v1/x', async () => ({ ok: true }));
    const asset = await app.inject('/assets/index-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['x-ratelimit-limit']).toBeUndefined();
    // Identity and API calls stay limited, reads and writes alike.
    expect((await app.inject('/identity/jwks.json')).headers['x-ratelimit-limit']).toBe('1200');
    expect((await app.inject({ method: 'POST', url: '/api/v1/x' })).headers['x-ratelimit-limit']).toBe(
      '1200',
    );
    await app.close();
  });
});
