import { ErrorBodySchema, OpenAiErrorSchema } from '@assistente/contracts';
import { type SQL, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from './test/app.ts';
import { makeChat, makeDomain, makeUser, type TestUser } from './test/factories.ts';

/**
 * Schema fuzzing driven by GET /api/openapi.json (issue 10): every documented operation gets
 * random and malformed params, queries and bodies, with and without a token. None may answer 5xx,
 * every error is in the API's shape (Identity Toolkit's for /identity, OpenAI's for /v1), and a refused request
 * changes nothing stored.
 */
const RUNS_PER_OPERATION = 25;
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

const IdentityErrorSchema = z.object({
  error: z.object({ code: z.number().int(), message: z.string() }),
});

interface Operation {
  method: string;
  path: string;
  params: string[];
  query: string[];
  bodyKeys: string[];
  hasBody: boolean;
  /** Answers server-sent events: its success never ends by itself. */
  streamed: boolean;
}

let t: TestApp;
let operations: Operation[] = [];
const people: Record<string, TestUser> = {};
const knownIds: string[] = [];

/** Every stored row of every table, hashed: equal before and after means nothing changed. */
async function rowsOf<T>(query: SQL): Promise<T[]> {
  // Both drivers answer `{ rows }`; drizzle types the two differently.
  return ((await t.ctx.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Tables whose rows change with time, not with requests: the scheduler's leases and run log. */
const CLOCK_TABLES = new Set(['job_leases', 'job_runs']);
let fingerprintQuery: SQL | undefined;

async function fingerprint(): Promise<string> {
  // One statement for every table: a refused request is followed by a fingerprint, thousands of
  // times, and a query (and a JSON copy of every row) per table made this file the suite's slowest.
  if (!fingerprintQuery) {
    const tables = await rowsOf<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like '\\_\\_%' order by 1`,
    );
    const parts = tables
      .filter(({ name }) => !CLOCK_TABLES.has(name))
      .map(
        ({ name }) =>
          `(select md5(coalesce(string_agg(r::text, ',' order by r::text), '')) from "${name}" r)`,
      );
    expect(parts.length).toBeGreaterThan(40);
    fingerprintQuery = sql.raw(`select md5(${parts.join(' || ')}) as hash`);
  }
  const [row] = await rowsOf<{ hash: string }>(fingerprintQuery);
  return row?.hash ?? '';
}

function operationsOf(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const responses = (op.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
      // The agents websocket is fuzzed by its own tests, frame by frame.
      if ('101' in responses) continue;
      const parameters = (op.parameters ?? []) as Array<{ in: string; name: string }>;
      const body = (op.requestBody ?? undefined) as
        | { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
        | undefined;
      const json = body?.content?.['application/json']?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyKeys: Object.keys(json?.properties ?? {}),
        hasBody: body !== undefined,
        streamed: responses['200']?.content?.['text/event-stream'] !== undefined,
      });
    }
  }
  return out;
}

/** Values that break naive code: wrong types, huge, empty, odd characters. */
const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'NaN',
    '../..',
    '%',
    '%00',
    '\u202e',
    'a'.repeat(5000),
    '{}',
    '[]',
  ),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

const pathValue = () =>
  fc.oneof(
    fc.constantFrom(...knownIds),
    fc.uuid(),
    fc.string({ minLength: 1, maxLength: 60 }),
    fc.constantFrom('..', '%2e%2e', 'a%2Fb', '%00', 'x'.repeat(600)),
  );

function requestFor(op: Operation) {
  return fc.record({
    token: fc.constantFrom<string | undefined>(
      undefined,
      'viewer',
      'admin',
      'superAdmin',
      'other',
      'garbage',
    ),
    params: fc.tuple(...op.params.map(() => pathValue())),
    query: fc.dictionary(
      op.query.length > 0
        ? fc.oneof(fc.constantFrom(...op.query), fc.string({ maxLength: 10 }))
        : fc.string({ maxLength: 10 }),
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.integer().map(String),
        fc.constantFrom('', 'true', '-1', '99999999999'),
      ),
      { maxKeys: 4 },
    ),
    body: op.hasBody
      ? fc.oneof(
          fc.dictionary(
            op.bodyKeys.length > 0
              ? fc.oneof(fc.constantFrom(...op.bodyKeys), fc.string({ maxLength: 10 }))
              : fc.string({ maxLength: 10 }),
            hostileValue,
            { maxKeys: Math.max(3, op.bodyKeys.length) },
          ),
          hostileValue,
          fc.constant('{"broken json'),
        )
      : fc.constant(undefined),
  });
}

async function text(stream: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts).toString();
}

function urlOf(op: Operation, params: string[], query: Record<string, string>): string {
  let i = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++] ?? 'x'));
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  const acme = await makeDomain(t.ctx, { premium: true });
  const other = await makeDomain(t.ctx, { premium: true });
  people.viewer = await makeUser(t.ctx, { domain: acme, role: 'Viewer' });
  people.admin = await makeUser(t.ctx, { domain: acme, role: 'Admin' });
  people.superAdmin = await makeUser(t.ctx, { domain: acme, role: 'SuperAdmin' });
  people.other = await makeUser(t.ctx, { domain: other, role: 'Admin' });
  // The fingerprint sees a change: otherwise "changes nothing" below could never fail.
  const before = await fingerprint();
  const { chat } = await makeChat(t.ctx, people.viewer, { messages: ['Hello'] });
  expect(await fingerprint()).not.toBe(before);
  knownIds.push(
    people.viewer.user.id,
    people.other.user.id,
    acme.domain.id,
    other.domain.id,
    acme.department.id,
    chat.id,
  );
  const doc = (await t.app.inject('/api/openapi.json')).json();
  operations = operationsOf(doc);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe(`every documented operation, fuzzed (seed ${SEED})`, () => {
  it('answers no 5xx, errors in the API shape, and a refused request changes nothing', async () => {
    expect(operations.length).toBeGreaterThan(40);
    let sent = 0;
    // What is stored now: re-read after each accepted change, compared after each refusal.
    let stored = await fingerprint();
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (req) => {
          const headers: Record<string, string> = {};
          if (req.token === 'garbage') headers.authorization = 'Bearer not.a.token';
          else if (req.token) headers.authorization = `Bearer ${people[req.token]?.idToken}`;
          let payload: string | undefined;
          if (req.body !== undefined) {
            headers['content-type'] = 'application/json';
            payload =
              typeof req.body === 'string' && req.body.startsWith('{"broken')
                ? req.body
                : JSON.stringify(req.body);
          }
          const res = await t.app.inject({
            method: op.method as 'GET',
            url: urlOf(op, req.params, req.query),
            headers,
            ...(payload === undefined ? {} : { payload }),
            // An event stream's answer is read as it comes: it ends only when the client goes.
            ...(op.streamed ? { payloadAsStream: true } : {}),
          });
          sent++;
          let body: string;
          if (op.streamed && res.statusCode === 200) {
            expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
            res.raw.res.destroy();
            body = '';
          } else body = op.streamed ? await text(res.stream()) : res.body;
          const where = `${op.method} ${op.path} → ${res.statusCode} ${body.slice(0, 300)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode >= 400) {
            // The OpenAI-compatible API (/v1) answers in OpenAI's error shape; the MCP server
            // refuses a caller in the API's own, before any MCP is spoken.
            const shape =
              op.path.startsWith('/api/') || op.path === '/mcp'
                ? ErrorBodySchema
                : op.path.startsWith('/v1/')
                  ? OpenAiErrorSchema
                  : IdentityErrorSchema;
            expect(shape.safeParse(JSON.parse(body)).success, where).toBe(true);
            if (op.method !== 'GET') expect(await fingerprint(), `${where} changed stored data`).toBe(stored);
          } else if (op.method !== 'GET') {
            stored = await fingerprint();
          }
        }),
        { numRuns: RUNS_PER_OPERATION, seed: SEED, endOnFailure: true },
      );
    }
    expect(sent).toBeGreaterThanOrEqual(operations.length * RUNS_PER_OPERATION);
  }, 600_000);
});
