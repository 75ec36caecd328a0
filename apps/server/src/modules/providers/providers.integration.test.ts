import { type AddressInfo, createServer } from 'node:net';
import {
  AiSettingsSchema,
  AuditEntrySchema,
  ErrorBodySchema,
  ModelListSchema,
  type ProviderConfig,
  ProviderConfigSchema,
  ProviderTestResultSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerConfigs } from '../../db/schema/index.ts';
import { resolveCaller } from '../../plugins/auth.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';

const KEY = 'sk-live-THIS-IS-SECRET-9f8e7d6c';

let fx: LlmFixture;
let refusedPort: number;
/** Allows the fixture (127.0.0.1:<port>) for domain configurations. */
let t: TestApp;
/** No allowlist: loopback and private URLs are refused. */
let strict: TestApp;
/** Instance-wide env provider pointing at the fixture (trusted) and a DEFAULT_MODEL. */
let env: TestApp;

let a: TestDomain;
let b: TestDomain;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let otherAdmin: TestUser;
let superAdmin: TestUser;

const errorOf = (res: LightMyRequestResponse) => ErrorBodySchema.parse(res.json()).error;

async function create(
  who: TestUser,
  body: Record<string, unknown>,
  app = t,
  query = '',
): Promise<ProviderConfig> {
  const res = await app.call('POST', `/api/v1/settings/providers${query}`, who, body);
  expect(res.statusCode, res.body).toBe(201);
  return ProviderConfigSchema.strict().parse(res.json());
}

const fixtureBody = () => ({
  kind: 'openai-compatible',
  label: 'Local fixture',
  baseUrl: fx.baseUrl,
  apiKey: KEY,
});

beforeAll(async () => {
  fx = await startLlmFixture();
  const gone = createServer();
  await new Promise<void>((done) => gone.listen(0, '127.0.0.1', done));
  refusedPort = (gone.address() as AddressInfo).port;
  await new Promise((done) => gone.close(done));
  // The fixture, a port nothing listens on, and a name that resolves nowhere.
  t = await buildTestApp({
    PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port},127.0.0.1:${refusedPort},llm.nowhere.invalid`,
  });
  strict = await buildTestApp();
  env = await buildTestApp({
    OPENAI_BASE_URL: fx.baseUrl,
    OPENAI_API_KEY: 'env-key',
    DEFAULT_MODEL: 'openai:fixture-large',
  });
  a = await makeDomain(t.ctx);
  b = await makeDomain(t.ctx);
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  editor = await makeUser(t.ctx, { domain: a, role: 'Editor' });
  viewer = await makeUser(t.ctx, { domain: a });
  otherAdmin = await makeUser(t.ctx, { domain: b, role: 'Admin' });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin' });
}, 120_000);

beforeEach(() => fx.reset());

afterAll(async () => {
  await Promise.all([t?.close(), strict?.close(), env?.close()]);
  await fx?.close();
}, 60_000);

describe('provider settings are for Admins of the domain', () => {
  it('refuses Viewers and Editors on every settings endpoint', async () => {
    for (const who of [viewer, editor]) {
      for (const [method, url, body] of [
        ['GET', '/api/v1/settings/providers', undefined],
        ['POST', '/api/v1/settings/providers', fixtureBody()],
        ['PUT', '/api/v1/settings/providers/p000000000000', { label: 'x' }],
        ['DELETE', '/api/v1/settings/providers/p000000000000', undefined],
        ['POST', '/api/v1/settings/providers/p000000000000/test', undefined],
        ['GET', '/api/v1/settings/ai', undefined],
        ['PUT', '/api/v1/settings/ai', { defaultModel: null }],
      ] as const) {
        const res = await t.call(method, url, who, body);
        expect(res.statusCode, `${who.user.role} ${method} ${url}`).toBe(403);
      }
    }
    const res = await t.app.inject({ url: '/api/v1/settings/providers' });
    expect(res.statusCode).toBe(401);
  });

  it('an Admin manages their own domain only; a SuperAdmin any domain with ?domain=', async () => {
    const mine = await create(admin, fixtureBody());
    expect(mine.domain).toBe(a.domain.id);
    // Naming another domain is refused for an Admin.
    expect((await t.call('GET', `/api/v1/settings/providers?domain=${b.domain.id}`, admin)).statusCode).toBe(
      403,
    );
    // Another domain's Admin sees nothing of it and cannot touch it.
    const list = await t.call('GET', '/api/v1/settings/providers', otherAdmin);
    expect((list.json() as ProviderConfig[]).map((p) => p.id)).not.toContain(mine.id);
    for (const [method, url, body] of [
      ['PUT', `/api/v1/settings/providers/${mine.id}`, { label: 'hijacked' }],
      ['DELETE', `/api/v1/settings/providers/${mine.id}`, undefined],
      ['POST', `/api/v1/settings/providers/${mine.id}/test`, undefined],
    ] as const) {
      const res = await t.call(method, url, otherAdmin, body);
      expect(res.statusCode).toBe(404);
    }
    // A SuperAdmin reaches it through ?domain=.
    const viaSuper = await t.call('GET', `/api/v1/settings/providers?domain=${a.domain.id}`, superAdmin);
    expect((viaSuper.json() as ProviderConfig[]).map((p) => p.id)).toContain(mine.id);
    const made = await create(superAdmin, fixtureBody(), t, `?domain=${b.domain.id}`);
    expect(made.domain).toBe(b.domain.id);
    const missing = await t.call('GET', '/api/v1/settings/providers?domain=nowhere.example', superAdmin);
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).code).toBe('DOMAIN_NOT_FOUND');
  });
});

describe('API keys', () => {
  it('are encrypted at rest and never sent back in clear', async () => {
    const made = await create(admin, { ...fixtureBody(), models: ['fixture-small'] });
    expect(made).toMatchObject({ hasApiKey: true, models: ['fixture-small'] });
    expect(made.apiKeyHint).toBe(KEY.slice(-4));
    const [row] = await t.ctx.db.select().from(providerConfigs).where(eq(providerConfigs.id, made.id));
    expect(row?.apiKeyEnc).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(JSON.stringify(row)).not.toContain(KEY.slice(3, -4));
    for (const res of [
      await t.call('GET', '/api/v1/settings/providers', admin),
      await t.call('PUT', `/api/v1/settings/providers/${made.id}`, admin, { label: 'Renamed' }),
      await t.call('GET', '/api/v1/models', viewer),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(KEY);
      expect(res.body).not.toContain('apiKeyEnc');
    }
  });

  it('an empty key keeps the stored one, a new key replaces it, null removes it', async () => {
    const made = await create(admin, fixtureBody());
    const stored = async () =>
      (await t.ctx.db.select().from(providerConfigs).where(eq(providerConfigs.id, made.id)))[0]?.apiKeyEnc;
    const before = await stored();
    let res = await t.call('PUT', `/api/v1/settings/providers/${made.id}`, admin, {
      apiKey: '',
      label: 'Same key',
    });
    expect(res.statusCode).toBe(200);
    expect(await stored()).toBe(before);
    // The provider still gets the original key.
    await t.call('POST', `/api/v1/settings/providers/${made.id}/test`, admin);
    expect(fx.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    res = await t.call('PUT', `/api/v1/settings/providers/${made.id}`, admin, {
      apiKey: 'sk-another-key-000011112222',
    });
    expect(ProviderConfigSchema.parse(res.json()).apiKeyHint).toBe('2222');
    await t.call('POST', `/api/v1/settings/providers/${made.id}/test`, admin);
    expect(fx.requests.at(-1)?.headers.authorization).toBe('Bearer sk-another-key-000011112222');

    res = await t.call('PUT', `/api/v1/settings/providers/${made.id}`, admin, { apiKey: null });
    expect(ProviderConfigSchema.parse(res.json())).toMatchObject({ hasApiKey: false, apiKeyHint: null });
    expect(await stored()).toBeNull();
  });

  it('refuses to remove the key of a provider that needs one, and unknown fields', async () => {
    const made = await create(admin, { kind: 'openai', label: 'OpenAI', baseUrl: fx.baseUrl, apiKey: KEY });
    const res = await t.call('PUT', `/api/v1/settings/providers/${made.id}`, admin, { apiKey: null });
    expect(res.statusCode).toBe(400);
    const extra = await t.call('POST', '/api/v1/settings/providers', admin, { ...fixtureBody(), secret: 1 });
    expect(extra.statusCode).toBe(400);
    const noKey = await t.call('POST', '/api/v1/settings/providers', admin, {
      kind: 'anthropic',
      label: 'A',
    });
    expect(noKey.statusCode).toBe(400);
    expect(errorOf(noKey).message).toContain('apiKey');
    const noUrl = await t.call('POST', '/api/v1/settings/providers', admin, { kind: 'ollama', label: 'O' });
    expect(errorOf(noUrl).message).toContain('baseUrl');
  });
});

describe('the SSRF rule', () => {
  beforeAll(async () => {
    strict = await buildTestApp();
    env = await buildTestApp({
      OPENAI_BASE_URL: fx.baseUrl,
      OPENAI_API_KEY: 'env-key',
      DEFAULT_MODEL: 'openai:fixture-large',
    });
  }, 120_000);
  const refused = [
    'http://127.0.0.1:11434',
    'http://localhost:11434/v1',
    'http://169.254.169.254/latest',
    'http://10.0.0.8/v1',
    'http://192.168.1.20:8000/v1',
    'http://[::1]:8000/v1',
    'http://[::ffff:127.0.0.1]/v1',
    'http://[::ffff:0:127.0.0.1]/v1',
  ];

  it('refuses private, loopback and metadata base URLs without an allowlist', async () => {
    const strictAdmin = await makeUser(strict.ctx, { role: 'Admin' });
    for (const baseUrl of [...refused, fx.baseUrl]) {
      const res = await strict.call('POST', '/api/v1/settings/providers', strictAdmin, {
        kind: 'openai-compatible',
        label: 'x',
        baseUrl,
      });
      expect(res.statusCode, baseUrl).toBe(400);
      expect(errorOf(res).message).toMatch(/private|resolve/);
      expect(res.json().error.details).toEqual([
        expect.objectContaining({ path: 'baseUrl', code: 'url_blocked' }),
      ]);
    }
    expect(fx.requests).toHaveLength(0);
    const rows = await strict.ctx.db.select().from(providerConfigs);
    expect(rows).toEqual([]);
  });

  it('says why an address is refused: a private one, or a name that does not resolve', async () => {
    const strictAdmin = await makeUser(strict.ctx, { role: 'Admin' });
    const detailOf = async (baseUrl: string) => {
      const res = await strict.call('POST', '/api/v1/settings/providers', strictAdmin, {
        kind: 'openai-compatible',
        label: 'x',
        baseUrl,
      });
      expect(res.statusCode, baseUrl).toBe(400);
      return (errorOf(res).details as unknown[])[0];
    };
    expect(await detailOf('http://10.0.0.8/v1')).toMatchObject({ reason: 'private', address: '10.0.0.8' });
    expect(await detailOf('https://llm.nowhere.invalid/v1')).toMatchObject({
      code: 'url_blocked',
      reason: 'unresolvable',
      host: 'llm.nowhere.invalid',
    });
  });

  it('lets PROVIDER_URL_ALLOWLIST through, for that host:port only', async () => {
    await create(admin, fixtureBody());
    const otherPort = await t.call('POST', '/api/v1/settings/providers', admin, {
      ...fixtureBody(),
      baseUrl: `http://127.0.0.1:${fx.port + 1}/v1`,
    });
    expect(otherPort.statusCode).toBe(400);
  });

  it('refuses a redirect to a private address at request time', async () => {
    const made = await create(admin, fixtureBody());
    for (const target of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/v1/models',
      `http://127.0.0.1:${fx.port + 1}/`,
    ]) {
      fx.setScript({ redirectTo: target });
      const res = await t.call('POST', `/api/v1/settings/providers/${made.id}/test`, admin);
      const result = ProviderTestResultSchema.parse(res.json());
      expect(result.ok, target).toBe(false);
      expect(result.message).toMatch(/private/);
    }
  });

  it('checks a URL changed by an update too', async () => {
    const made = await create(admin, fixtureBody());
    const res = await t.call('PUT', `/api/v1/settings/providers/${made.id}`, admin, {
      baseUrl: 'http://10.1.1.1/v1',
    });
    expect(res.statusCode).toBe(400);
  });

  it('trusts the instance-wide env settings (loopback allowed)', async () => {
    const user = await makeUser(env.ctx);
    const res = await env.call('GET', '/api/v1/models', user);
    const list = ModelListSchema.parse(res.json());
    expect(list.models.map((m) => m.id)).toEqual(['openai:fixture-large', 'openai:fixture-small']);
    expect(list.defaultModel).toBe('openai:fixture-large');
    expect(list.models[0]).toMatchObject({ source: 'instance', kind: 'openai-compatible' });
  });
});

describe('testing a provider', () => {
  it('lists the models with the stored settings, or says why it failed', async () => {
    const made = await create(admin, fixtureBody());
    fx.setModels(['m-one', 'm-two']);
    let res = await t.call('POST', `/api/v1/settings/providers/${made.id}/test`, admin);
    expect(ProviderTestResultSchema.parse(res.json())).toEqual({ ok: true, models: ['m-one', 'm-two'] });
    fx.setScript({ status: 401 });
    res = await t.call('POST', `/api/v1/settings/providers/${made.id}/test`, admin);
    const failed = ProviderTestResultSchema.parse(res.json());
    expect(failed.ok).toBe(false);
    expect(failed.message).toContain('API key');
    expect(res.body).not.toContain(KEY);
  });

  it('says what happened as a code: refused key, refused connection, unknown host', async () => {
    const made = await create(admin, fixtureBody());
    fx.setScript({ status: 401 });
    let res = await t.call('POST', `/api/v1/settings/providers/${made.id}/test`, admin);
    expect(ProviderTestResultSchema.parse(res.json()).failure).toEqual({ code: 'key_refused', status: 401 });
    fx.reset();
    for (const [baseUrl, address, host] of [
      [`http://127.0.0.1:${refusedPort}/v1`, 'refused', '127.0.0.1'],
      ['http://llm.nowhere.invalid/v1', 'unresolvable', 'llm.nowhere.invalid'],
    ] as const) {
      const dead = await create(admin, { ...fixtureBody(), baseUrl });
      res = await t.call('POST', `/api/v1/settings/providers/${dead.id}/test`, admin);
      const failure = ProviderTestResultSchema.parse(res.json()).failure;
      expect(failure, baseUrl).toEqual({ code: 'unreachable', address, host });
    }
  });

  it('speaks Ollama’s native API for the ollama kind', async () => {
    const made = await create(admin, { kind: 'ollama', label: 'Ollama', baseUrl: fx.url });
    fx.setModels(['llama3.2']);
    const res = await t.call('POST', `/api/v1/settings/providers/${made.id}/test`, admin);
    expect(ProviderTestResultSchema.parse(res.json())).toEqual({ ok: true, models: ['llama3.2'] });
    expect(fx.requests.at(-1)?.path).toBe('/api/tags');
  });
});

describe('models and the default model', () => {
  it("lists every signed-in user's domain models: curated lists as given, others from the provider", async () => {
    const d = await makeDomain(t.ctx);
    const dAdmin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    const dViewer = await makeUser(t.ctx, { domain: d });
    const curated = await create(dAdmin, { ...fixtureBody(), label: 'Curated', models: ['fixture-small'] });
    const listed = await create(dAdmin, { ...fixtureBody(), label: 'Listed' });
    await create(dAdmin, { ...fixtureBody(), label: 'Off', enabled: false });
    const res = await t.call('GET', '/api/v1/models', dViewer);
    const list = ModelListSchema.parse(res.json());
    expect(list.models.map((m) => m.id)).toEqual([
      `${curated.id}:fixture-small`,
      `${listed.id}:fixture-large`,
      `${listed.id}:fixture-small`,
    ]);
    expect(list.models[0]).toMatchObject({
      providerLabel: 'Curated',
      source: 'domain',
      name: 'fixture-small',
    });
    // No default chosen: the first model listed is the one chats get, and the list says so.
    expect(list.defaultModel).toBe(`${curated.id}:fixture-small`);

    const put = await t.call('PUT', '/api/v1/settings/ai', dAdmin, {
      defaultModel: `${listed.id}:fixture-large`,
    });
    expect(AiSettingsSchema.parse(put.json())).toMatchObject({ defaultModel: `${listed.id}:fixture-large` });
    const after = ModelListSchema.parse((await t.call('GET', '/api/v1/models', dViewer)).json());
    expect(after.defaultModel).toBe(`${listed.id}:fixture-large`);
    const got = await t.call('GET', '/api/v1/settings/ai', dAdmin);
    expect(AiSettingsSchema.parse(got.json()).effectiveDefaultModel).toBe(`${listed.id}:fixture-large`);
  });

  it('offers no embedding model for chats, nor as the default', async () => {
    const d = await makeDomain(t.ctx);
    const dAdmin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    const made = await create(dAdmin, fixtureBody());
    fx.setModels(['all-minilm', 'bge-m3', 'fixture-chat', 'mxbai-embed-large', 'nomic-embed-text']);
    try {
      const list = ModelListSchema.parse((await t.call('GET', '/api/v1/models', dAdmin)).json());
      expect(list).toEqual({
        models: [expect.objectContaining({ id: `${made.id}:fixture-chat` })],
        defaultModel: `${made.id}:fixture-chat`,
      });
    } finally {
      fx.reset();
    }
  });

  it('refuses a default model no provider offers', async () => {
    const res = await t.call('PUT', '/api/v1/settings/ai', admin, { defaultModel: 'nobody:model' });
    expect(res.statusCode).toBe(400);
    const bad = await t.call('PUT', '/api/v1/settings/ai', admin, { defaultModel: 'no-colon' });
    expect(bad.statusCode).toBe(400);
    // A provider with a curated list offers those models only: chats could not use another.
    const d = await makeDomain(t.ctx);
    const dAdmin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    const curated = await create(dAdmin, { ...fixtureBody(), models: ['fixture-small'] });
    const outside = { defaultModel: `${curated.id}:fixture-large` };
    expect((await t.call('PUT', '/api/v1/settings/ai', dAdmin, outside)).statusCode).toBe(400);
    const inside = { defaultModel: `${curated.id}:fixture-small` };
    expect((await t.call('PUT', '/api/v1/settings/ai', dAdmin, inside)).statusCode).toBe(200);
  });

  it('a domain with nothing configured lists no model', async () => {
    const lonely = await makeUser(t.ctx);
    const list = ModelListSchema.parse((await t.call('GET', '/api/v1/models', lonely)).json());
    expect(list).toEqual({ models: [], defaultModel: null });
  });

  it('resolveModel picks the chat model, else the default, else the first listed; NO_PROVIDER when none', async () => {
    const d = await makeDomain(t.ctx);
    const dAdmin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    const caller = await resolveCaller(t.ctx, dAdmin.idToken);
    const service = t.ctx.services.providers;
    await expect(service.resolveModel(caller)).rejects.toMatchObject({ code: 'NO_PROVIDER' });
    const made = await create(dAdmin, fixtureBody());
    expect((await service.resolveModel(caller)).modelId).toBe(`${made.id}:fixture-large`);
    expect((await service.resolveModel(caller, 'openai-compatible:x')).modelId).toBe(`${made.id}:x`);
    await expect(service.resolveModel(caller, 'anthropic:claude')).rejects.toMatchObject({
      code: 'MODEL_UNAVAILABLE',
    });
    // A santito's model that is gone gives way to the default.
    expect((await service.resolveModel(caller, 'anthropic:claude', true)).modelId).toBe(
      `${made.id}:fixture-large`,
    );
  });

  it('removing the provider of the default model clears it: settings show what chats use', async () => {
    const d = await makeDomain(t.ctx);
    const dAdmin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    const first = await create(dAdmin, { ...fixtureBody(), label: 'Primeiro', models: ['fixture-small'] });
    const second = await create(dAdmin, { ...fixtureBody(), label: 'Segundo', models: ['fixture-large'] });
    const put = await t.call('PUT', '/api/v1/settings/ai', dAdmin, {
      defaultModel: `${second.id}:fixture-large`,
    });
    expect(put.statusCode).toBe(200);
    expect((await t.call('DELETE', `/api/v1/settings/providers/${second.id}`, dAdmin)).statusCode).toBe(204);
    const settings = AiSettingsSchema.parse((await t.call('GET', '/api/v1/settings/ai', dAdmin)).json());
    expect(settings).toMatchObject({
      defaultModel: null,
      effectiveDefaultModel: `${first.id}:fixture-small`,
    });
    const list = ModelListSchema.parse((await t.call('GET', '/api/v1/models', dAdmin)).json());
    expect(list.defaultModel).toBe(`${first.id}:fixture-small`);
    expect(list.models.map((m) => m.id)).toContain(list.defaultModel);
    const caller = await resolveCaller(t.ctx, dAdmin.idToken);
    expect((await t.ctx.services.providers.resolveModel(caller)).modelId).toBe(`${first.id}:fixture-small`);
  });

  it('every change is in the audit log, without the key', async () => {
    const d = await makeDomain(t.ctx);
    const dAdmin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    const made = await create(dAdmin, { ...fixtureBody(), label: 'Auditado' });
    const newKey = 'sk-audit-replaced-key-123';
    expect(
      (
        await t.call('PUT', `/api/v1/settings/providers/${made.id}`, dAdmin, {
          label: 'Renomeado',
          apiKey: newKey,
        })
      ).statusCode,
    ).toBe(200);
    const model = `${made.id}:fixture-large`;
    expect((await t.call('PUT', '/api/v1/settings/ai', dAdmin, { defaultModel: model })).statusCode).toBe(
      200,
    );
    expect((await t.call('DELETE', `/api/v1/settings/providers/${made.id}`, dAdmin)).statusCode).toBe(204);

    const res = await t.call('GET', '/api/v1/audit?limit=20', dAdmin);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(KEY);
    expect(res.body).not.toContain(newKey);
    const entries = (res.json() as unknown[]).map((e) => AuditEntrySchema.parse(e));
    expect(entries.map((e) => [e.action, e.target.type, e.target.id, e.actor.id])).toEqual([
      ['provider.delete', 'provider', made.id, dAdmin.user.id],
      ['domain.ai.update', 'domain', d.domain.id, dAdmin.user.id],
      ['provider.update', 'provider', made.id, dAdmin.user.id],
      ['provider.create', 'provider', made.id, dAdmin.user.id],
    ]);
    const [deleted, setDefault, updated, created] = entries;
    expect(created?.after).toMatchObject({
      displayName: 'Auditado',
      kind: 'openai-compatible',
      keySet: true,
    });
    expect(updated?.before).toEqual({ displayName: 'Auditado' });
    expect(updated?.after).toEqual({ displayName: 'Renomeado', keyReplaced: true });
    expect(setDefault?.after).toEqual({ defaultModel: model });
    // Its provider gone, the default went with it, and the entry says so.
    expect(deleted?.before).toMatchObject({ displayName: 'Renomeado', defaultModel: model });
    expect(deleted?.after).toEqual({ defaultModel: null });
  });

  it('a refused change writes no audit entry', async () => {
    const d = await makeDomain(t.ctx);
    const dAdmin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    expect(
      (await t.call('PUT', '/api/v1/settings/ai', dAdmin, { defaultModel: 'nobody:model' })).statusCode,
    ).toBe(400);
    expect((await t.call('DELETE', '/api/v1/settings/providers/p000000000000', dAdmin)).statusCode).toBe(404);
    const res = await t.call('GET', '/api/v1/audit', dAdmin);
    expect(res.json()).toEqual([]);
  });

  it('deletes a configuration', async () => {
    const made = await create(admin, fixtureBody());
    expect((await t.call('DELETE', `/api/v1/settings/providers/${made.id}`, admin)).statusCode).toBe(204);
    expect((await t.call('DELETE', `/api/v1/settings/providers/${made.id}`, admin)).statusCode).toBe(404);
  });
});
