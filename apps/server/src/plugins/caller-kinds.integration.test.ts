import { ErrorBodySchema } from '@assistente/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type ApiKeyCaller,
  type Caller,
  type CallerFor,
  CallerResolvers,
  type UserCaller,
  type VisitorCaller,
} from '../lib/caller.ts';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../test/factories.ts';
import { userResolver } from './auth.ts';
import { registerErrorHandler } from './errors.ts';
import { registerDeclaredRoutes } from './routes.ts';

// Routes declared for this test only, on an app sharing the test app's services but with resolvers
// of its own: the real `user` one, and a stand-in for visitors' tokens so the hook's handling of
// kinds is tested apart from the embedded module (its own tests use real visitor tokens).

let t: TestApp;
let app: FastifyInstance;
let plain: TestDomain;
let premium: TestDomain;
let viewer: TestUser;
let admin: TestUser;
let premiumViewer: TestUser;

const VISITOR_TOKEN = 'visitor-token-of-v1';

const KindSchema = z.object({ kind: z.string() });

beforeAll(async () => {
  t = await buildTestApp();
  plain = await makeDomain(t.ctx);
  premium = await makeDomain(t.ctx, { premium: true });
  viewer = await makeUser(t.ctx, { domain: plain });
  admin = await makeUser(t.ctx, { domain: plain, role: 'Admin' });
  premiumViewer = await makeUser(t.ctx, { domain: premium });

  const ctx = { ...t.ctx, services: { ...t.ctx.services, callers: new CallerResolvers() } };
  ctx.services.callers.register('user', userResolver(ctx));
  ctx.services.callers.register('visitor', {
    async resolve(token): Promise<VisitorCaller | undefined> {
      if (token !== VISITOR_TOKEN) return undefined;
      return {
        kind: 'visitor',
        virtualAccount: {
          id: 'va1',
          agentId: null,
          allowedOrigins: [],
          allowAttachments: false,
          limits: { messagesPerMinute: 1, messagesPerDay: 1 },
        },
        uid: 'va:va1:v1',
        sessionId: 's1',
        user: viewer.user,
        visitorId: 'v1',
        domain: premium.domain,
        premium: true,
      };
    },
  });

  app = Fastify({ logger: false });
  registerErrorHandler(app);
  await registerDeclaredRoutes(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const answer = (caller: Caller | null) => ({ kind: caller?.kind ?? 'anonymous' });
  const schema = { response: { 200: KindSchema } };
  // Each handler reads `request.caller` typed by its route's `config.auth` (the assertions are
  // checked by the typecheck; the answers by the tests below).
  r.get('/api/test/user', { config: { auth: 'user' }, schema }, async (request) => {
    expectTypeOf(request.caller).toEqualTypeOf<UserCaller>();
    return { kind: request.caller.kind };
  });
  r.get('/api/test/visitor', { config: { auth: 'visitor' }, schema }, async (request) => {
    expectTypeOf(request.caller).toEqualTypeOf<VisitorCaller>();
    return { kind: request.caller.kind };
  });
  r.get('/api/test/either', { config: { auth: ['user', 'visitor'] }, schema }, async (request) => {
    expectTypeOf(request.caller).toEqualTypeOf<UserCaller | VisitorCaller>();
    return answer(request.caller);
  });
  r.get('/api/test/optional', { config: { auth: ['public', 'user'] }, schema }, async (request) => {
    expectTypeOf(request.caller).toEqualTypeOf<UserCaller | null>();
    return answer(request.caller);
  });
  r.get('/api/test/admin', { config: { auth: 'user', role: 'Admin' }, schema }, async (request) =>
    answer(request.caller),
  );
  r.get('/api/test/premium', { config: { auth: 'user', premium: true }, schema }, async (request) =>
    answer(request.caller),
  );
  r.get(
    '/api/test/visitor-admin',
    { config: { auth: ['user', 'visitor'], role: 'Admin' }, schema },
    async (request) => answer(request.caller),
  );
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await t?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

function expectRefused(res: Awaited<ReturnType<typeof get>>, status: number): void {
  expect(res.statusCode).toBe(status);
  expect(ErrorBodySchema.parse(res.json()).error.status).toBe(status);
}

describe('routes declare the kinds of caller they serve', () => {
  it('a route declared for visitors refuses a user token, and one for users a visitor token', async () => {
    expectRefused(await get('/api/test/visitor', viewer.headers), 401);
    expect((await get('/api/test/visitor', bearer(VISITOR_TOKEN))).json()).toEqual({ kind: 'visitor' });

    expectRefused(await get('/api/test/user', bearer(VISITOR_TOKEN)), 401);
    expect((await get('/api/test/user', viewer.headers)).json()).toEqual({ kind: 'user' });
  });

  it('a route declaring several kinds serves each, and nobody without a credential', async () => {
    expect((await get('/api/test/either', viewer.headers)).json()).toEqual({ kind: 'user' });
    expect((await get('/api/test/either', bearer(VISITOR_TOKEN))).json()).toEqual({ kind: 'visitor' });
    expectRefused(await get('/api/test/either'), 401);
    expectRefused(await get('/api/test/either', bearer('neither-kind')), 401);
  });

  it('`public` in the list makes the caller optional, but a bad token is still refused', async () => {
    expect((await get('/api/test/optional')).json()).toEqual({ kind: 'anonymous' });
    expect((await get('/api/test/optional', viewer.headers)).json()).toEqual({ kind: 'user' });
    expectRefused(await get('/api/test/optional', bearer('not.a.token')), 401);
  });

  it('the declared least role refuses lower roles, and visitors, who have none', async () => {
    expectRefused(await get('/api/test/admin', viewer.headers), 403);
    expect((await get('/api/test/admin', admin.headers)).statusCode).toBe(200);
    expectRefused(await get('/api/test/visitor-admin', bearer(VISITOR_TOKEN)), 403);
    expect((await get('/api/test/visitor-admin', admin.headers)).statusCode).toBe(200);
  });

  it('a premium route refuses a user of a domain that is not premium', async () => {
    expectRefused(await get('/api/test/premium', viewer.headers), 403);
    expect((await get('/api/test/premium', premiumViewer.headers)).json()).toEqual({ kind: 'user' });
  });

  it('a revoked session is refused at once', async () => {
    const u = await makeUser(t.ctx, { domain: plain });
    expect((await get('/api/test/user', u.headers)).statusCode).toBe(200);
    await t.ctx.identity.revokeSession(u.sessionId, 'test');
    expectRefused(await get('/api/test/user', u.headers), 401);
  });
});

describe("a route's declaration types its caller", () => {
  it('narrows to the declared kinds, optional with `public`, and the whole union when undeclared', () => {
    expectTypeOf<CallerFor<{ auth: 'apiKey' }>>().toEqualTypeOf<ApiKeyCaller>();
    expectTypeOf<CallerFor<{ readonly auth: readonly ['user', 'apiKey'] }>>().toEqualTypeOf<
      UserCaller | ApiKeyCaller
    >();
    expectTypeOf<CallerFor<{ auth: 'public' }>>().toEqualTypeOf<null>();
    expectTypeOf<CallerFor<{ auth: ['public', 'visitor'] }>>().toEqualTypeOf<VisitorCaller | null>();
    expectTypeOf<CallerFor<unknown>>().toEqualTypeOf<Caller | null>();
  });
});
