import type { AddressInfo } from 'node:net';
import { ApiKeyCreatedSchema, OpenAiErrorSchema, UserSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiUsage, domains, santitos } from '../../db/schema/index.ts';
import { type AgentsTestApp, startAgentsTestApp } from '../../test/agents-app.ts';
import { makeDomain, makeSantito, makeUser, type TestUser } from '../../test/factories.ts';

const PER_MINUTE = 4;
let s: AgentsTestApp;
let base: string;
let user: TestUser;
let admin: TestUser;
let model: string;

async function newKey(who: TestUser = user): Promise<{ id: string; secret: string }> {
  const res = await s.t.app.inject({
    method: 'POST',
    url: '/api/v1/api_keys',
    headers: who.headers,
    payload: { name: 'openai client' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return ApiKeyCreatedSchema.parse(res.json());
}
const client = (secret: string) => new OpenAI({ apiKey: secret, baseURL: `${base}/v1`, maxRetries: 0 });
const usageRows = (keyId: string) => s.t.ctx.db.select().from(apiUsage).where(eq(apiUsage.keyId, keyId));

beforeAll(async () => {
  s = await startAgentsTestApp({ env: { API_KEY_REQUESTS_PER_MINUTE: String(PER_MINUTE) } });
  base = `http://127.0.0.1:${(s.t.app.server.address() as AddressInfo).port}`;
  // Santitos are a premium feature.
  await s.t.ctx.db.update(domains).set({ premium: true }).where(eq(domains.id, s.domain.domain.id));
  user = await makeUser(s.t.ctx, { domain: s.domain, role: 'Viewer' });
  admin = await makeUser(s.t.ctx, { domain: s.domain, role: 'Admin' });
  const listed = await client((await newKey()).secret).models.list();
  const found = listed.data.find((m) => m.id.endsWith(':fixture-small'));
  if (!found) throw new Error('the fixture model is not listed');
  model = found.id;
});

afterAll(async () => {
  await s?.close();
});

describe('the OpenAI-compatible API with the official openai client', () => {
  it('lists the models and the santitos the key’s user may use', async () => {
    const santito = await makeSantito(s.t.ctx, admin, { name: 'Helper' });
    const elsewhere = await makeSantito(s.t.ctx, await makeUser(s.t.ctx, { role: 'Admin' }));
    const ids = (await client((await newKey()).secret).models.list()).data.map((m) => m.id);
    expect(ids).toContain(model);
    expect(ids).toContain(`santito:${santito.id}`);
    expect(ids).not.toContain(`santito:${elsewhere.id}`);
  });

  it('answers a plain completion with usage, and counts it in the user’s usage', async () => {
    s.fx.reset();
    const key = await newKey();
    const res = await client(key.secret).chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'Answer in English.' },
        { role: 'user', content: 'Say hello' },
      ],
    });
    expect(res.object).toBe('chat.completion');
    expect(res.model).toBe(model);
    expect(res.choices[0]?.message.content).toBe('Hello from the fixture.');
    expect(res.choices[0]?.finish_reason).toBe('stop');
    expect(res.usage?.completion_tokens).toBeGreaterThan(0);
    expect(res.usage?.total_tokens).toBe(
      (res.usage?.prompt_tokens ?? 0) + (res.usage?.completion_tokens ?? 0),
    );
    const sent = s.fx.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(sent.messages[0]).toMatchObject({ role: 'system', content: 'Answer in English.' });
    const [row] = await usageRows(key.id);
    expect(row).toMatchObject({
      userId: user.user.id,
      domainId: s.domain.domain.id,
      model,
      stream: false,
      status: 'complete',
      totalTokens: res.usage?.total_tokens,
    });
  });

  it('streams a completion as server-sent events, usage last when asked', async () => {
    s.fx.setScript({ text: 'One two three four.', delayMs: 15 });
    const key = await newKey();
    const stream = await client(key.secret).chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Count' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      expect(chunk.object).toBe('chat.completion.chunk');
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('One two three four.');
    expect(chunks).toBeGreaterThan(3);
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBe(4);
    s.fx.reset();
    const [row] = await usageRows(key.id);
    expect(row).toMatchObject({ stream: true, status: 'complete', outputTokens: 4 });
  });

  it('applies a santito’s instructions and its model', async () => {
    s.fx.reset();
    const santito = await makeSantito(s.t.ctx, admin);
    await s.t.ctx.db
      .update(santitos)
      .set({ instructions: 'You are Santo.' })
      .where(eq(santitos.id, santito.id));
    const key = await newKey();
    const res = await client(key.secret).chat.completions.create({
      model: `santito:${santito.id}`,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Who are you?' },
      ],
    });
    expect(res.model).toBe(`santito:${santito.id}`);
    const sent = s.fx.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(sent.messages[0]).toMatchObject({ role: 'system', content: 'You are Santo.\n\nBe brief.' });
    expect((await usageRows(key.id))[0]).toMatchObject({ santitoId: santito.id, model });
  });

  it('refuses another domain’s santito, and unknown models, as model_not_found', async () => {
    const other = await makeDomain(s.t.ctx, { premium: true });
    const theirs = await makeSantito(s.t.ctx, await makeUser(s.t.ctx, { domain: other, role: 'Admin' }));
    const c = client((await newKey()).secret);
    for (const m of [`santito:${theirs.id}`, 'fixture:nope', 'nonsense']) {
      const err = await c.chat.completions
        .create({ model: m, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((e: unknown) => e);
      expect(err, m).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    }
  });

  it('takes a bare model name for the one provider offering it', async () => {
    s.fx.reset();
    const res = await client((await newKey()).secret).chat.completions.create({
      model: 'fixture-small',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(res.choices[0]?.message.content).toBe('Hello from the fixture.');
    expect(res.model).toBe('fixture-small');
    expect(s.fx.chatRequests().at(-1)?.body).toMatchObject({ model: 'fixture-small' });
  });

  it('refuses a bare name two providers offer with 400 naming both, and lists no embedding model', async () => {
    const d = await makeDomain(s.t.ctx);
    const dAdmin = await makeUser(s.t.ctx, { domain: d, role: 'Admin' });
    const ids: string[] = [];
    for (const models of [['fixture-small'], []]) {
      const res = await s.t.app.inject({
        method: 'POST',
        url: '/api/v1/settings/providers',
        headers: dAdmin.headers,
        payload: { kind: 'openai-compatible', label: 'Twin', baseUrl: s.fx.baseUrl, models },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push((res.json() as { id: string }).id);
    }
    s.fx.setModels(['fixture-small', 'nomic-embed-text', 'text-embedding-3-small']);
    try {
      const c = client((await newKey(dAdmin)).secret);
      const listed = (await c.models.list()).data.map((m) => m.id);
      expect(listed).toEqual([`${ids[0]}:fixture-small`, `${ids[1]}:fixture-small`]);
      const err = await c.chat.completions
        .create({ model: 'fixture-small', messages: [{ role: 'user', content: 'Hi' }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      const bad = err as InstanceType<typeof OpenAI.BadRequestError>;
      expect(bad.code).toBe('model_ambiguous');
      expect(bad.param).toBe('model');
      expect(bad.message).toContain(`${ids[0]}:fixture-small`);
      expect(bad.message).toContain(`${ids[1]}:fixture-small`);
      const embed = await c.chat.completions
        .create({ model: 'nomic-embed-text', messages: [{ role: 'user', content: 'Hi' }] })
        .catch((e: unknown) => e);
      expect(embed).toBeInstanceOf(OpenAI.NotFoundError);
    } finally {
      s.fx.reset();
    }
  });

  it('refuses a bad key with 401 in OpenAI’s error shape', async () => {
    const err = await client('ak_not-a-key')
      .models.list()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    const raw = await fetch(`${base}/v1/models`, { headers: { authorization: 'Bearer sk-nope' } });
    expect(raw.status).toBe(401);
    expect(OpenAiErrorSchema.strict().parse(await raw.json()).error).toMatchObject({
      type: 'authentication_error',
      code: 'invalid_api_key',
    });
  });

  it('refuses bad input with 400 naming the parameter', async () => {
    const key = await newKey();
    const raw = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [] }),
    });
    expect(raw.status).toBe(400);
    const body = OpenAiErrorSchema.parse(await raw.json());
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });
    const err = await client(key.secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: '' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(await usageRows(key.id)).toEqual([]);
  });

  it('stops a revoked key at once', async () => {
    const key = await newKey();
    const c = client(key.secret);
    await c.models.list();
    const del = await s.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/api_keys/${key.id}`,
      headers: user.headers,
    });
    expect(del.statusCode).toBe(204);
    await expect(c.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('stops a deactivated user’s keys at once', async () => {
    const who = await makeUser(s.t.ctx, { domain: s.domain });
    const c = client((await newKey(who)).secret);
    await c.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] });
    const url = `/api/v1/user/${encodeURIComponent(who.user.id)}`;
    const record = UserSchema.parse((await s.t.app.inject({ url, headers: admin.headers })).json());
    const off = await s.t.app.inject({
      method: 'PUT',
      url,
      headers: admin.headers,
      payload: { ...record, active: false },
    });
    expect(off.statusCode).toBe(200);
    const err = await c.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('limits each key’s requests per minute (429), other keys unaffected', async () => {
    const key = await newKey();
    const c = client(key.secret);
    for (let i = 0; i < PER_MINUTE; i++) {
      await c.chat.completions.create({ model, messages: [{ role: 'user', content: `Hi ${i}` }] });
    }
    const err = await c.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'Again' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded');
    await client((await newKey()).secret).chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });

  it('a provider failure is an OpenAI error, plain or mid-stream, and is counted', async () => {
    const key = await newKey();
    const c = client(key.secret);
    // A refusal the provider client does not retry (a 500 would be).
    s.fx.enqueue({ status: 401, errorMessage: 'upstream refused' });
    const plain = await c.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(OpenAI.APIError);
    expect((plain as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    s.fx.enqueue({ text: 'a b c d e f', failAfterChunks: 2, failMode: 'error-event', errorMessage: 'cut' });
    const stream = await c.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    const read = (async () => {
      for await (const _ of stream) {
        // read to the end
      }
    })();
    await expect(read).rejects.toBeInstanceOf(OpenAI.APIError);
    // The client raises at the error event, before the server has ended the response (and stored
    // the call, which it does before ending).
    await expect
      .poll(async () => (await usageRows(key.id)).map((r) => r.status).sort())
      .toEqual(['error', 'error']);
  });

  it('a client that goes away mid-stream stops the model call, counted as stopped', async () => {
    const key = await newKey();
    s.fx.enqueue({ text: Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '), delayMs: 100 });
    const abort = new AbortController();
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'Long one' }] }),
      signal: abort.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // Written by hand, the streamed answer still carries the security headers every answer has.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    abort.abort();
    await expect.poll(() => s.fx.activeStreams(), { timeout: 5_000 }).toBe(0);
    await expect.poll(async () => (await usageRows(key.id))[0]?.status, { timeout: 5_000 }).toBe('stopped');
  });

  it('is in the OpenAPI document, under the API-key scheme', async () => {
    const doc = (await s.t.app.inject('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, { security?: unknown; responses?: Record<string, unknown> }>>;
    };
    expect(doc.paths['/v1/models']?.get?.security).toEqual([{ apiKey: [] }]);
    const post = doc.paths['/v1/chat/completions']?.post;
    expect(post?.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(post?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '429']));
  });
});
