import type { AddressInfo } from 'node:net';
import { ApiKeyCreatedSchema, SantitoSchema } from '@assistente/contracts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiUsage } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDepartment, makeDomain, makeUser, type TestUser } from '../../test/factories.ts';
import { uploadHrHandbook } from '../../test/knowledge/hr-handbook.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';

let fx: LlmFixture;
let t: TestApp;
let base: string;
let member: TestUser;
let stranger: TestUser;
let otherAdmin: TestUser;
let santitoId: string;
let privateId: string;
let theirsId: string;
const clients: Client[] = [];

async function api(who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
}

async function keyOf(who: TestUser): Promise<{ id: string; secret: string }> {
  const res = await api(who, 'POST', '/api/v1/api_keys', { name: 'mcp client' });
  expect(res.statusCode, res.body).toBe(201);
  return ApiKeyCreatedSchema.parse(res.json());
}

/** The official SDK client, connected to /mcp with `secret` as its bearer token. */
async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');

beforeAll(async () => {
  fx = await startLlmFixture({
    models: ['fixture-small', 'fixture-embed'],
    script: { text: 'Thirty days [1].' },
  });
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}` });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const a = await makeDomain(t.ctx, { premium: true });
  const admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  const editor = await makeUser(t.ctx, { domain: a, role: 'Editor' });
  member = await makeUser(t.ctx, { domain: a });
  stranger = await makeUser(t.ctx, {
    domain: a,
    department: await makeDepartment(t.ctx, a.domain.id, 'Elsewhere'),
  });
  otherAdmin = await makeUser(t.ctx, { domain: await makeDomain(t.ctx, { premium: true }), role: 'Admin' });
  for (const who of [admin, otherAdmin]) {
    const provider = await api(who, 'POST', '/api/v1/settings/providers', {
      kind: 'openai-compatible',
      label: 'Fixture',
      baseUrl: fx.baseUrl,
    });
    expect(provider.statusCode, provider.body).toBe(201);
  }
  const sourceId = await uploadHrHandbook(t, admin);
  const knowledge = [{ kind: 'source', ref: sourceId, title: 'HR handbook' }];
  const made = await api(editor, 'POST', '/api/v1/agent', {
    name: 'HR helper',
    description: 'Answers questions about HR',
    instructions: 'You are the HR helper.',
    knowledge,
  });
  expect(made.statusCode, made.body).toBe(201);
  santitoId = SantitoSchema.parse(made.json())._id;
  const priv = await api(editor, 'POST', '/api/v1/agent', {
    name: 'HR private',
    visibility: 'department',
    departmentId: a.department.id,
  });
  expect(priv.statusCode, priv.body).toBe(201);
  privateId = SantitoSchema.parse(priv.json())._id;
  const theirs = await api(otherAdmin, 'POST', '/api/v1/agent', { name: 'Their helper' });
  expect(theirs.statusCode, theirs.body).toBe(201);
  theirsId = SantitoSchema.parse(theirs.json())._id;
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.close();
  await fx?.close();
});

describe('Assistente as an MCP server (/mcp) with the official SDK client', () => {
  it('refuses a client without a key, or with a bad one, with 401', async () => {
    for (const headers of [{}, { Authorization: 'Bearer ak_not-a-key' }] as Array<Record<string, string>>) {
      const client = new Client({ name: 'anonymous', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers },
      });
      const err = await client.connect(transport).catch((e: unknown) => e);
      expect(String(err)).toContain('401');
    }
  });

  it('offers its three tools, and answers GET and DELETE with 405 (it keeps no sessions)', async () => {
    const client = await connect((await keyOf(member)).secret);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'ask_santito',
      'list_santitos',
      'search_knowledge',
    ]);
    expect(tools.find((tool) => tool.name === 'ask_santito')?.inputSchema.required).toEqual([
      'santitoId',
      'question',
    ]);
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('lists only the santitos the key’s user may use', async () => {
    const mine = textOf(
      await (await connect((await keyOf(member)).secret)).callTool({ name: 'list_santitos' }),
    );
    expect(mine).toContain(`${santitoId}: HR helper — Answers questions about HR`);
    expect(mine).toContain(privateId);
    expect(mine).not.toContain(theirsId);
    const strangers = textOf(
      await (await connect((await keyOf(stranger)).secret)).callTool({ name: 'list_santitos' }),
    );
    expect(strangers).toContain(santitoId);
    expect(strangers).not.toContain(privateId);
  });

  it('asks a santito with its instructions and knowledge, counted in the key’s usage', async () => {
    const key = await keyOf(member);
    const client = await connect(key.secret);
    const result = await client.callTool({
      name: 'ask_santito',
      arguments: { santitoId, question: 'How many vacation days do we get?' },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('Thirty days [1].');
    const sent = fx.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: string }> };
    const system = sent.messages.find((m) => m.role === 'system')?.content ?? '';
    expect(system).toContain('You are the HR helper.');
    expect(system).toContain('thirty days of paid vacation');
    const rows = await t.ctx.db.select().from(apiUsage).where(eq(apiUsage.keyId, key.id));
    expect(rows).toEqual([expect.objectContaining({ santitoId, status: 'complete', stream: false })]);
  });

  it('answers a santito the user may not use, or a bad argument, as a tool error, calling no model', async () => {
    const calls = fx.chatRequests().length;
    const client = await connect((await keyOf(stranger)).secret);
    for (const id of [privateId, theirsId, 'nope']) {
      const result = await client.callTool({
        name: 'ask_santito',
        arguments: { santitoId: id, question: 'Hi' },
      });
      expect(result.isError, id).toBe(true);
      expect(textOf(result), id).toContain('does not exist or you do not have access to it');
    }
    const bad = await client.callTool({ name: 'ask_santito', arguments: { santitoId: '', question: 'Hi' } });
    expect(bad.isError).toBe(true);
    expect(fx.chatRequests()).toHaveLength(calls);
  });

  it('searches the knowledge of the user’s santitos, with sources, and nothing of a santito they may not use', async () => {
    const client = await connect((await keyOf(member)).secret);
    const found = textOf(
      await client.callTool({ name: 'search_knowledge', arguments: { query: 'vacation days' } }),
    );
    expect(found).toContain('thirty days of paid vacation');
    expect(found).toMatch(/^\[1\] vacation — Vacation\n/);
    expect(found).toMatch(/\n\nSources:\n\[1\] vacation/);
    const one = await client.callTool({
      name: 'search_knowledge',
      arguments: { query: 'garage', santitoId },
    });
    expect(textOf(one)).toContain('seven in the morning');
    const otherClient = await connect((await keyOf(otherAdmin)).secret);
    const none = textOf(
      await otherClient.callTool({ name: 'search_knowledge', arguments: { query: 'vacation' } }),
    );
    expect(none).toBe('Nothing in the knowledge you may use matches this.');
    const refused = await otherClient.callTool({
      name: 'search_knowledge',
      arguments: { query: 'vacation', santitoId },
    });
    expect(refused.isError).toBe(true);
  });
});
