import type { AddressInfo } from 'node:net';
import {
  ApiKeyCreatedSchema,
  AuditEntrySchema,
  ErrorBodySchema,
  type ModelAccess,
  ModelAccessSchema,
  ModelListSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { santitos } from '../../db/schema/index.ts';
import { useAgentsSuite } from '../../test/agents-suite.ts';
import { makeDepartment, makeSantito, makeUser, type TestUser } from '../../test/factories.ts';

/* Model access (docs/ARCHITECTURE.md#model-access): the rules, and every path that applies them. */

const { the, connect, exchange } = useAgentsSuite();
const errorOf = (res: LightMyRequestResponse) => ErrorBodySchema.parse(res.json()).error;
const URL = '/api/v1/settings/model_access';
/** The model name the fixture was last asked for. */
const sentModel = () => (the.fx.chatRequests()[0]?.body as { model?: unknown } | undefined)?.model;

let costly: string;
let cheap: string;
let providerId: string;
let department: string;
let viewer: TestUser;
let editor: TestUser;
let colleague: TestUser;
let superAdmin: TestUser;

const call = (method: 'GET' | 'PUT', who: TestUser, body?: unknown, query = '') =>
  the.t.call(method, `${URL}${query}`, who, body);

async function put(access: ModelAccess, who = the.admin): Promise<void> {
  const res = await call('PUT', who, access);
  expect(res.statusCode, res.body).toBe(200);
}

const listed = async (who: TestUser) =>
  ModelListSchema.parse((await the.t.call('GET', '/api/v1/models', who)).json()).models.map((m) => m.id);

async function openAi(who: TestUser): Promise<OpenAI> {
  const res = await the.t.call('POST', '/api/v1/api_keys', who, { name: 'model access' });
  expect(res.statusCode, res.body).toBe(201);
  const port = (the.t.app.server.address() as AddressInfo).port;
  return new OpenAI({
    apiKey: ApiKeyCreatedSchema.parse(res.json()).secret,
    baseURL: `http://127.0.0.1:${port}/v1`,
    maxRetries: 0,
  });
}

beforeAll(async () => {
  providerId = the.modelId.slice(0, the.modelId.indexOf(':'));
  const res = await the.t.call('PUT', `/api/v1/settings/providers/${providerId}`, the.admin, {
    models: ['fixture-small', 'fixture-large'],
  });
  expect(res.statusCode, res.body).toBe(200);
  cheap = the.modelId;
  costly = `${providerId}:fixture-large`;
  const finance = await makeDepartment(the.t.ctx, the.dom.domain.id, 'Finance');
  department = finance.id;
  viewer = await makeUser(the.t.ctx, { domain: the.dom });
  editor = await makeUser(the.t.ctx, { domain: the.dom, role: 'Editor' });
  colleague = await makeUser(the.t.ctx, { domain: the.dom, department: finance });
  superAdmin = await makeUser(the.t.ctx, { role: 'SuperAdmin' });
});

describe('the model access settings', () => {
  it('are for Admins of the domain; a SuperAdmin reaches any with ?domain=', async () => {
    await put({ rules: [], default: 'allow' });
    for (const who of [viewer, editor, colleague]) {
      expect((await call('GET', who)).statusCode).toBe(403);
      expect((await call('PUT', who, { rules: [], default: 'deny' })).statusCode).toBe(403);
    }
    // Another domain's Admin reads and writes their own rules only.
    const q = `?domain=${the.dom.domain.id}`;
    expect((await call('GET', the.outsider, undefined, q)).statusCode).toBe(403);
    expect((await call('PUT', the.outsider, { rules: [], default: 'deny' }, q)).statusCode).toBe(403);
    expect(ModelAccessSchema.parse((await call('GET', the.admin)).json())).toEqual({
      rules: [],
      default: 'allow',
    });
    const rules: ModelAccess = { rules: [{ model: costly, roles: ['Admin'] }], default: 'allow' };
    const viaSuper = await call('PUT', superAdmin, rules, q);
    expect(viaSuper.statusCode, viaSuper.body).toBe(200);
    expect((await call('GET', the.admin)).json()).toEqual(rules);
    expect((await call('GET', superAdmin, undefined, q)).json()).toEqual(rules);
    // The outsider's domain kept its own (none).
    expect((await call('GET', the.outsider)).json()).toEqual({ rules: [], default: 'allow' });
    const missing = await call('GET', superAdmin, undefined, '?domain=nowhere.example');
    expect(errorOf(missing).code).toBe('DOMAIN_NOT_FOUND');
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const kept: ModelAccess = {
      rules: [{ model: `${providerId}:*`, departments: [department] }],
      default: 'deny',
    };
    await put(kept);
    const elsewhere = await makeDepartment(the.t.ctx, the.outsider.user.domainId, 'Not ours');
    for (const bad of [
      { rules: [{ model: 'no-colon' }], default: 'allow' },
      { rules: [{ model: 'a:b c' }], default: 'allow' },
      { rules: [{ model: costly, roles: ['Boss'] }], default: 'allow' },
      { rules: [{ model: costly, departments: ['d-missing'] }], default: 'allow' },
      { rules: [{ model: costly, departments: [elsewhere.id] }], default: 'allow' },
      { rules: [{ model: costly }, { model: costly }], default: 'allow' },
      { rules: [], default: 'maybe' },
      { rules: [], default: 'allow', extra: true },
    ]) {
      const res = await call('PUT', the.admin, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await call('GET', the.admin)).json()).toEqual(kept);
  });

  it('audits every change with what it was and what it became', async () => {
    await put({ rules: [], default: 'allow' });
    const after: ModelAccess = { rules: [{ model: costly, roles: ['Admin'] }], default: 'deny' };
    await put(after);
    const res = await the.t.call('GET', '/api/v1/audit?limit=5', the.admin);
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = AuditEntrySchema.array().parse(res.json());
    expect(entry).toMatchObject({
      action: 'domain.model_access.update',
      target: { type: 'domain', id: the.dom.domain.id },
      actor: { id: the.admin.user.id },
      before: { rules: [], default: 'allow' },
      after,
    });
  });
});

describe('a model closed to the caller', () => {
  // "An Admin keeps a costly model for Admins and one department."
  const keepCostly = () =>
    put({ rules: [{ model: costly, roles: ['Admin'], departments: [department] }], default: 'allow' });

  it('is absent from /api/v1/models for others, listed for Admins and the department', async () => {
    await keepCostly();
    expect(await listed(viewer)).toEqual([cheap]);
    expect(await listed(editor)).toEqual([cheap]);
    for (const who of [the.admin, colleague])
      expect((await listed(who)).sort()).toEqual([costly, cheap].sort());
    // `default: deny` closes what no rule names; `provider:*` matches every model of the provider.
    await put({ rules: [{ model: `${providerId}:*`, departments: [department] }], default: 'deny' });
    expect(await listed(viewer)).toEqual([]);
    expect((await listed(colleague)).sort()).toEqual([costly, cheap].sort());
    // The exact rule outranks the provider's.
    await put({
      rules: [
        { model: `${providerId}:*`, roles: ['Admin'] },
        { model: cheap, roles: ['Viewer'] },
      ],
      default: 'deny',
    });
    expect(await listed(viewer)).toEqual([cheap]);
    expect(await listed(the.admin)).toEqual([costly]);
  });

  it('is absent from /v1/models and refused on /v1/chat/completions with 403', async () => {
    await keepCostly();
    const v = await openAi(viewer);
    const ids = (await v.models.list()).data.map((m) => m.id);
    expect(ids).toContain(cheap);
    expect(ids).not.toContain(costly);
    const err = await v.chat.completions
      .create({ model: costly, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((err as InstanceType<typeof OpenAI.PermissionDeniedError>).code).toBe('model_not_allowed');
    expect(the.fx.chatRequests()).toEqual([]);
    const c = await openAi(colleague);
    expect((await c.models.list()).data.map((m) => m.id)).toContain(costly);
    const ok = await c.chat.completions.create({
      model: costly,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(ok.model).toBe(costly);
  });

  it('is refused with MODEL_NOT_ALLOWED on the websocket, and answers for the department', async () => {
    await keepCostly();
    const s = await connect(viewer);
    s.send({
      type: 'chat.send',
      requestId: 'closed',
      chatId: null,
      content: 'hi',
      params: { model: costly },
    });
    const err = await s.next('error', (f) => f.requestId === 'closed');
    expect(err.code).toBe('MODEL_NOT_ALLOWED');
    expect(the.fx.chatRequests()).toEqual([]);
    const r = await exchange(await connect(colleague), { content: 'hi', params: { model: costly } });
    expect(r.done.status).toBe('complete');
    expect(sentModel()).toBe('fixture-large');
  });

  it('refuses a santito pinned to it, for people it is closed to, over both APIs', async () => {
    await keepCostly();
    const santito = await makeSantito(the.t.ctx, the.admin);
    await the.t.ctx.db.update(santitos).set({ model: costly }).where(eq(santitos.id, santito.id));
    const s = await connect(viewer);
    s.send({ type: 'chat.send', requestId: 'pinned', chatId: null, agentId: santito.id, content: 'hi' });
    expect((await s.next('error', (f) => f.requestId === 'pinned')).code).toBe('MODEL_NOT_ALLOWED');
    const err = await (await openAi(viewer)).chat.completions
      .create({ model: `santito:${santito.id}`, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(the.fx.chatRequests()).toEqual([]);
    const r = await exchange(await connect(the.admin), { agentId: santito.id, content: 'hi' });
    expect(r.done.status).toBe('complete');
  });

  it('cannot be chosen for a santito by someone it is closed to', async () => {
    await keepCostly();
    const res = await the.t.call('POST', '/api/v1/agent', editor, { name: 'Pricey', model: costly });
    expect(res.statusCode, res.body).toBe(403);
    expect(errorOf(res).code).toBe('MODEL_NOT_ALLOWED');
    const ok = await the.t.call('POST', '/api/v1/agent', editor, { name: 'Thrifty', model: cheap });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('is skipped as the default: a chat naming no model gets one the caller may use', async () => {
    await put({ rules: [{ model: cheap, roles: ['Admin'] }], default: 'allow' });
    const list = ModelListSchema.parse((await the.t.call('GET', '/api/v1/models', viewer)).json());
    expect(list.defaultModel).toBe(costly);
    const r = await exchange(await connect(viewer), { content: 'hi' });
    expect(r.done.status).toBe('complete');
    expect(sentModel()).toBe('fixture-large');
    // Nothing open at all: refused, not answered with a closed model.
    await put({ rules: [], default: 'deny' });
    const s = await connect(viewer);
    s.send({ type: 'chat.send', requestId: 'none', chatId: null, content: 'hi' });
    expect((await s.next('error', (f) => f.requestId === 'none')).code).toBe('MODEL_NOT_ALLOWED');
    await put({ rules: [], default: 'allow' });
  });
});
