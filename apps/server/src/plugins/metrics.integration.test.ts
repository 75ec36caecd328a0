import type { AddressInfo } from 'node:net';
import { ApiKeyCreatedSchema } from '@assistente/contracts';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentsTestApp, startAgentsTestApp } from '../test/agents-app.ts';
import { TestSocket } from '../test/agents-client.ts';
import { buildTestApp, errorOf } from '../test/app.ts';
import { makeChat, makeUser, type TestUser } from '../test/factories.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const scrapeAs = (token: string | undefined) => ({
  method: 'GET' as const,
  url: '/metrics',
  headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the Prometheus text format (version 0.0.4): every line is a HELP, a TYPE or
 * a sample of a declared family, or the test fails naming the line.
 */
function parseExposition(text: string): Sample[] {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  const name = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const label = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
  const sampleLine = new RegExp(`^(${name})(?:\\{((?:${label},?)*)\\})? (\\S+)(?: -?\\d+)?$`);
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const help = new RegExp(`^# HELP (${name}) .*$`).exec(line);
    const type = new RegExp(`^# TYPE (${name}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (help) continue;
    if (type) {
      expect(families.has(type[1] as string), `family declared twice: ${line}`).toBe(false);
      families.set(type[1] as string, type[2] as string);
      continue;
    }
    const m = sampleLine.exec(line);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const [, sampleName = '', rawLabels = '', , , value = ''] = m ?? [];
    const family = sampleName.replace(/_(bucket|sum|count)$/, '');
    expect(families.has(sampleName) || families.has(family), `sample of no declared family: ${line}`).toBe(
      true,
    );
    const labels: Record<string, string> = {};
    for (const [, k = '', v = ''] of rawLabels.matchAll(new RegExp(label, 'g'))) labels[k] = v;
    // Go's float syntax, which Prometheus reads: NaN in any case (prom-client writes `Nan`).
    const n = value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : Number(value);
    expect(Number.isNaN(n) && value.toLowerCase() !== 'nan', `bad value: ${line}`).toBe(false);
    samples.push({ name: sampleName, labels, value: n });
  }
  return samples;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  find(samples, name, labels).reduce((sum, s) => sum + s.value, 0);

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is not found, whatever the token', async () => {
    const t = await buildTestApp();
    try {
      for (const token of [undefined, TOKEN, '']) {
        const res = await t.app.inject(scrapeAs(token));
        expect(res.statusCode).toBe(404);
        expect(errorOf(res).code).toBe('NOT_FOUND');
        expect(res.body).not.toContain('# TYPE');
      }
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let app: AgentsTestApp;
  let alice: TestUser;
  let base: string;

  const scrape = async () => {
    const res = await app.t.app.inject(scrapeAs(TOKEN));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
    return { text: res.body, samples: parseExposition(res.body) };
  };

  beforeAll(async () => {
    app = await startAgentsTestApp({
      env: { METRICS_TOKEN: TOKEN },
      script: {
        text: 'one two three four five six seven eight',
        delayMs: 40,
        usage: { promptTokens: 11, completionTokens: 8 },
      },
    });
    base = `http://127.0.0.1:${(app.t.app.server.address() as AddressInfo).port}`;
    alice = await makeUser(app.t.ctx, { domain: app.domain });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('refuses a missing or wrong bearer with 401 and shows no figure', async () => {
    for (const token of [undefined, '', 'wrong', `${TOKEN}x`, TOKEN.slice(0, -1), alice.idToken]) {
      const res = await app.t.app.inject(scrapeAs(token));
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).code).toBe('UNAUTHENTICATED');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(res.body).not.toContain('# TYPE');
    }
    // Not a bearer: the token alone, or as Basic.
    for (const authorization of [TOKEN, `Basic ${TOKEN}`]) {
      const res = await app.t.app.inject({ url: '/metrics', headers: { authorization } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('times each HTTP answer by route pattern, never by the raw URL', async () => {
    const { chat } = await makeChat(app.t.ctx, alice, { messages: ['Question'] });
    for (const url of [`/api/v1/chats/${chat.id}`, '/api/v1/chats/not-a-chat-id', '/no/such/path/x1y2']) {
      await app.t.app.inject({ url, headers: alice.headers });
    }
    const { text, samples } = await scrape();
    const route = { http_request_method: 'GET', http_route: '/api/v1/chats/:chatId' };
    expect(
      total(samples, 'http_server_request_duration_seconds_count', {
        ...route,
        http_response_status_code: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      total(samples, 'http_server_request_duration_seconds_count', {
        ...route,
        http_response_status_code: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      total(samples, 'http_server_request_duration_seconds_count', {
        http_route: '(unmatched)',
        http_response_status_code: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      find(samples, 'http_server_request_duration_seconds_bucket', { ...route, le: '+Inf' }).length,
    ).toBeGreaterThan(0);
    for (const raw of [chat.id, 'not-a-chat-id', 'x1y2']) expect(text).not.toContain(raw);
    // The process's own figures and the worker threads are there too.
    expect(find(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
    expect(find(samples, 'nodejs_heap_size_used_bytes')).toHaveLength(1);
  });

  it('counts open sockets and streaming answers, then time to first token and tokens by provider:model', async () => {
    const socket = await TestSocket.open(`${base.replace('http', 'ws')}/api/v1/agents/chat/`, {
      token: alice.idToken,
    });
    try {
      socket.send({ type: 'chat.send', requestId: 'm1', chatId: null, content: 'Tell me something' });
      const created = await socket.next(
        'message.created',
        (f) => f.requestId === 'm1' && f.message.role === 'assistant',
      );
      await socket.next('message.delta', (f) => f.messageId === created.message.messageId);
      const during = (await scrape()).samples;
      expect(total(during, 'assistente_websockets_open')).toBe(1);
      expect(total(during, 'assistente_answers_streaming')).toBe(1);
      expect(total(during, 'assistente_worker_threads', { pool: 'model-worker' })).toBeGreaterThanOrEqual(1);
      const utilisation = find(during, 'assistente_worker_event_loop_utilization', { pool: 'model-worker' });
      expect(utilisation).toHaveLength(1);
      expect(utilisation[0]?.value).toBeGreaterThanOrEqual(0);
      expect(utilisation[0]?.value).toBeLessThanOrEqual(1);

      const done = await socket.next('message.done', (f) => f.messageId === created.message.messageId);
      expect(done.status).toBe('complete');
      const model = created.message.model ?? '';
      expect(model).toMatch(/^[^:]+:fixture-small$/);
      const { text, samples } = await scrape();
      expect(total(samples, 'assistente_answers_streaming')).toBe(0);
      const ttft = { gen_ai_request_model: model };
      expect(total(samples, 'gen_ai_server_time_to_first_token_count', ttft)).toBe(1);
      const firstTokenSeconds = total(samples, 'gen_ai_server_time_to_first_token_sum', ttft);
      expect(firstTokenSeconds).toBeGreaterThan(0);
      expect(firstTokenSeconds).toBeLessThan(10);
      const tokens = (type: string, part: 'sum' | 'count') =>
        total(samples, `gen_ai_client_token_usage_${part}`, {
          gen_ai_request_model: model,
          gen_ai_token_type: type,
        });
      expect([tokens('input', 'sum'), tokens('output', 'sum')]).toEqual([11, 8]);
      expect([tokens('input', 'count'), tokens('output', 'count')]).toEqual([1, 1]);

      // Nobody is named: no e-mail, user, account, domain, chat or message id anywhere.
      const { user } = alice;
      for (const personal of [
        user.email,
        user.id,
        alice.uid,
        user.domainId,
        created.chatId,
        created.message.messageId,
      ])
        expect(text).not.toContain(personal);
      expect(text).not.toMatch(/@/);
    } finally {
      await socket.close();
    }
    await expect.poll(async () => total((await scrape()).samples, 'assistente_websockets_open')).toBe(0);
  });

  it('measures the OpenAI-compatible API’s calls under the same names', async () => {
    const created = await app.t.app.inject({
      method: 'POST',
      url: '/api/v1/api_keys',
      headers: alice.headers,
      payload: { name: 'metrics' },
    });
    const key = ApiKeyCreatedSchema.parse(created.json());
    const before = (await scrape()).samples;
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'fixture-small',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const after = (await scrape()).samples;
    const model =
      find(after, 'gen_ai_server_time_to_first_token_count')[0]?.labels.gen_ai_request_model ?? '';
    const count = (s: Sample[], name: string, labels: Record<string, string> = {}) =>
      total(s, name, { gen_ai_request_model: model, ...labels });
    expect(
      count(after, 'gen_ai_server_time_to_first_token_count') -
        count(before, 'gen_ai_server_time_to_first_token_count'),
    ).toBe(1);
    const output = { gen_ai_token_type: 'output' };
    expect(
      count(after, 'gen_ai_client_token_usage_sum', output) -
        count(before, 'gen_ai_client_token_usage_sum', output),
    ).toBe(8);
    expect(
      total(after, 'http_server_request_duration_seconds_count', {
        http_route: '/v1/chat/completions',
        http_response_status_code: '200',
      }),
    ).toBe(1);
    expect((await scrape()).text).not.toContain(key.secret);
  });

  it('counts background job runs by job and outcome, and budget refusals by code', async () => {
    await app.t.ctx.scheduler.runNow('agents.stale-answers');
    app.t.ctx.metrics.budgetRefused('BUDGET_EXCEEDED');
    const { samples } = await scrape();
    expect(
      total(samples, 'assistente_job_runs_total', { job: 'agents.stale-answers', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'assistente_budget_refusals_total', { code: 'BUDGET_EXCEEDED' })).toBe(1);
    // Present before any refusal, so a rate over it is defined.
    expect(find(samples, 'assistente_budget_refusals_total', { code: 'PRICE_MISSING' })).toEqual([
      { name: 'assistente_budget_refusals_total', labels: { code: 'PRICE_MISSING' }, value: 0 },
    ]);
  });

  it('builds one registry per app: a second app in the same process scrapes its own figures', async () => {
    const other = await buildTestApp({ METRICS_TOKEN: TOKEN });
    try {
      const res = await other.app.inject(scrapeAs(TOKEN));
      expect(res.statusCode).toBe(200);
      const samples = parseExposition(res.body);
      expect(find(samples, 'gen_ai_server_time_to_first_token_count')).toEqual([]);
      expect(find(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
