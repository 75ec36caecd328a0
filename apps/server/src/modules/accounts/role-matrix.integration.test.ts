import { randomBytes } from 'node:crypto';
import {
  type AuditAction,
  AuditEntrySchema,
  DepartmentSchema,
  DomainSchema,
  DomainSettingsSchema,
  ErrorBodySchema,
  UserSchema,
} from '@assistente/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, domains } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import type { TestDomain, TestUser } from '../../test/factories.ts';
import { makeDepartment, makeDomain, makeUser } from '../../test/factories.ts';
import { snapshotOrganisation } from '../../test/snapshot.ts';
import { toUser } from './dto.ts';

/**
 * Issue 3's role matrix: every organisation-management endpoint, called as every role of domain A,
 * as the Admin of another domain B and unauthenticated. Every call also carries the web client's
 * Domain/Department headers and domain/department/user/email query hints pointing at domain A, so
 * a call from B proves that hints never widen access. Denied calls must leave every table (and
 * the outbox) exactly as they were; allowed administrative writes must leave an audit entry.
 */

const ACTORS = ['anonymous', 'Viewer', 'Editor', 'Admin', 'SuperAdmin', 'otherAdmin'] as const;
type Actor = (typeof ACTORS)[number];

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  /** The audited target id, for allowed administrative writes. */
  target?: string;
}

interface Case {
  name: string;
  /** Builds fresh targets, so each actor meets the same situation. */
  call: (actor: Actor) => Promise<Call>;
  expect: Record<Actor, number>;
  audited?: AuditAction;
  /** Further checks on an allowed answer (what it may contain). */
  check?: (res: LightMyRequestResponse, actor: Actor) => void | Promise<void>;
}

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
const as = {} as Record<Exclude<Actor, 'anonymous'>, TestUser>;

const uniq = () => randomBytes(4).toString('hex');
/** The status every actor gets, with exceptions; unauthenticated is always 401. */
const status = (ok: number, except: Partial<Record<Actor, number>> = {}): Record<Actor, number> => ({
  anonymous: 401,
  Viewer: ok,
  Editor: ok,
  Admin: ok,
  SuperAdmin: ok,
  otherAdmin: ok,
  ...except,
});
/** Admin APIs on domain A: Viewer/Editor refused outright, B's Admin finds nothing. */
const adminOfA = (ok: number, other = 404) => status(ok, { Viewer: 403, Editor: 403, otherAdmin: other });
const superOnly = (ok: number) => status(ok, { Viewer: 403, Editor: 403, Admin: 403, otherAdmin: 403 });

const domainOf = (actor: Actor) => (actor === 'otherAdmin' ? b.domain.id : a.domain.id);
const freshUser = (opts: Parameters<typeof makeUser>[1] = {}) =>
  makeUser(t.ctx, { domain: a, withPassword: false, ...opts });
const userUrl = (id: string) => `/api/v1/user/${encodeURIComponent(id)}`;

const CASES: Case[] = [
  // ── users ──
  {
    name: 'GET /api/v1/user',
    call: async () => ({ method: 'GET', url: '/api/v1/user?limit=200' }),
    expect: status(200, { Viewer: 403, Editor: 403 }),
    check: (res, actor) => {
      const list = UserSchema.array().parse(res.json());
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((u) => u.domain === domainOf(actor))).toBe(true);
    },
  },
  {
    name: 'POST /api/v1/user',
    call: async () => {
      const email = `new-${uniq()}@${a.domain.id}`;
      const body = {
        email,
        displayName: 'New',
        domain: a.domain.id,
        department: a.department.id,
        role: 'Viewer',
      };
      return { method: 'POST', url: '/api/v1/user', body, target: email };
    },
    expect: adminOfA(201, 403),
    audited: 'user.create',
  },
  {
    name: 'GET /api/v1/user/{id}',
    call: async () => ({ method: 'GET', url: userUrl((await freshUser()).user.id) }),
    // Existing behaviour of GET/PUT by id: a colleague is as invisible as a missing user.
    expect: { ...adminOfA(200), Viewer: 404, Editor: 404 },
  },
  {
    name: 'PUT /api/v1/user/{id}',
    call: async () => {
      const target = await freshUser();
      const body = { ...toUser(target.user), displayName: 'Renamed', role: 'Editor' };
      return { method: 'PUT', url: userUrl(target.user.id), body, target: target.user.id };
    },
    expect: { ...adminOfA(200), Viewer: 404, Editor: 404 },
    audited: 'user.update',
  },
  {
    name: 'DELETE /api/v1/user/{id}',
    call: async () => {
      const target = await freshUser();
      return { method: 'DELETE', url: userUrl(target.user.id), target: target.user.id };
    },
    expect: adminOfA(204),
    audited: 'user.delete',
  },
  {
    name: 'POST /api/v1/user/{id}/invitation',
    call: async () => {
      const target = await freshUser({ withPassword: false });
      return { method: 'POST', url: `${userUrl(target.user.id)}/invitation`, target: target.user.id };
    },
    expect: adminOfA(200),
    audited: 'user.invite',
  },
  {
    name: 'POST /api/v1/user/{id}/sessions/revoke-all',
    call: async () => {
      const target = await freshUser();
      return {
        method: 'POST',
        url: `${userUrl(target.user.id)}/sessions/revoke-all`,
        target: target.user.id,
      };
    },
    expect: adminOfA(200),
    audited: 'user.sessions.revoke',
  },
  // ── domains ──
  {
    name: 'GET /api/v1/domain',
    call: async () => ({ method: 'GET', url: '/api/v1/domain?limit=200' }),
    expect: status(200),
    check: (res, actor) => {
      const ids = DomainSchema.array()
        .parse(res.json())
        .map((d) => d._id);
      if (actor === 'SuperAdmin') expect(ids).toEqual(expect.arrayContaining([a.domain.id, b.domain.id]));
      else expect(ids).toEqual([domainOf(actor)]);
    },
  },
  {
    name: 'GET /api/v1/domain/{id}',
    call: async () => ({ method: 'GET', url: `/api/v1/domain/${a.domain.id}` }),
    expect: status(200, { otherAdmin: 404 }),
  },
  {
    name: 'POST /api/v1/domain',
    call: async () => {
      const domain = `n${uniq()}.example.org`;
      return {
        method: 'POST',
        url: '/api/v1/domain',
        body: { domain, displayName: 'New org' },
        target: domain,
      };
    },
    expect: superOnly(201),
    audited: 'domain.create',
  },
  {
    name: 'PUT /api/v1/domain/{id}',
    call: async () => {
      const c = await makeDomain(t.ctx);
      const body = { displayName: 'Renamed org', cnpj: '11.222.333/0001-81' };
      return { method: 'PUT', url: `/api/v1/domain/${c.domain.id}`, body, target: c.domain.id };
    },
    expect: superOnly(200),
    audited: 'domain.update',
  },
  {
    name: 'DELETE /api/v1/domain/{id}',
    call: async () => {
      const c = await makeDomain(t.ctx);
      return { method: 'DELETE', url: `/api/v1/domain/${c.domain.id}`, target: c.domain.id };
    },
    expect: superOnly(204),
    audited: 'domain.delete',
  },
  // ── departments ──
  {
    name: 'GET /api/v1/department',
    call: async () => ({ method: 'GET', url: '/api/v1/department?limit=200' }),
    expect: status(200),
    check: (res, actor) => {
      const list = DepartmentSchema.array().parse(res.json());
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((d) => d.domain === domainOf(actor))).toBe(true);
    },
  },
  {
    name: 'POST /api/v1/department',
    call: async () => ({
      method: 'POST',
      url: '/api/v1/department',
      body: { displayName: `Dept ${uniq()}`, domain: a.domain.id },
    }),
    expect: adminOfA(201, 403),
    audited: 'department.create',
  },
  {
    name: 'PUT /api/v1/department/{id}',
    call: async () => {
      const d = await makeDepartment(t.ctx, a.domain.id, `Dept ${uniq()}`);
      const body = { displayName: `Renamed ${uniq()}`, active: false };
      return { method: 'PUT', url: `/api/v1/department/${d.id}`, body, target: d.id };
    },
    expect: adminOfA(200),
    audited: 'department.update',
  },
  {
    name: 'DELETE /api/v1/department/{id}',
    call: async () => {
      const d = await makeDepartment(t.ctx, a.domain.id, `Dept ${uniq()}`);
      return { method: 'DELETE', url: `/api/v1/department/${d.id}`, target: d.id };
    },
    expect: adminOfA(204),
    audited: 'department.delete',
  },
  // ── settings (the caller's own) ──
  {
    name: 'GET /api/v1/settings/profile',
    call: async () => ({ method: 'GET', url: '/api/v1/settings/profile' }),
    expect: status(200),
  },
  {
    name: 'PUT /api/v1/settings/profile',
    call: async () => ({
      method: 'PUT',
      url: '/api/v1/settings/profile',
      body: { displayName: `Me ${uniq()}` },
    }),
    expect: status(200),
  },
  {
    name: 'GET /api/v1/settings/sessions',
    call: async () => ({ method: 'GET', url: '/api/v1/settings/sessions' }),
    expect: status(200),
  },
  {
    name: 'DELETE /api/v1/settings/sessions/{id} (own)',
    call: async (actor) => {
      const who = actor === 'anonymous' ? as.Viewer : as[actor];
      const extra = await t.ctx.identity.issueSession(who.uid, { kind: 'editor', name: 'VS Code' });
      return { method: 'DELETE', url: `/api/v1/settings/sessions/${extra.sessionId}` };
    },
    expect: status(204),
  },
  {
    name: 'DELETE /api/v1/settings/sessions/{id} (someone else’s)',
    call: async () => {
      const victim = await freshUser();
      return { method: 'DELETE', url: `/api/v1/settings/sessions/${victim.sessionId}` };
    },
    expect: status(404),
  },
  {
    name: 'POST /api/v1/settings/sessions/revoke-all',
    call: async () => ({
      method: 'POST',
      url: '/api/v1/settings/sessions/revoke-all',
      body: { keepCurrent: true },
    }),
    expect: status(200),
  },
  {
    name: 'GET /api/v1/settings/eula',
    call: async () => ({ method: 'GET', url: '/api/v1/settings/eula' }),
    expect: status(200),
  },
  {
    name: 'POST /api/v1/settings/eula/accept',
    call: async (actor) => {
      const [d] = await t.ctx.db
        .select()
        .from(domains)
        .where(eq(domains.id, domainOf(actor)));
      return { method: 'POST', url: '/api/v1/settings/eula/accept', body: { version: d?.eulaVersion } };
    },
    expect: status(200),
  },
  {
    name: 'GET /api/v1/settings/domain',
    call: async () => ({ method: 'GET', url: '/api/v1/settings/domain' }),
    // The web's ?domain= hint names domain A: an Admin of B may not act on it (refused, not served B).
    expect: status(200, { Viewer: 403, Editor: 403, otherAdmin: 403 }),
    check: (res, actor) => {
      expect(DomainSettingsSchema.parse(res.json()).domain).toBe(domainOf(actor));
    },
  },
  {
    name: 'PUT /api/v1/settings/domain',
    call: async (actor) => ({
      method: 'PUT',
      url: '/api/v1/settings/domain',
      body: { eulaVersion: `v${uniq()}` },
      target: domainOf(actor),
    }),
    expect: status(200, { Viewer: 403, Editor: 403, otherAdmin: 403 }),
    audited: 'domain.settings.update',
    check: (res, actor) => {
      expect(DomainSettingsSchema.parse(res.json()).domain).toBe(domainOf(actor));
    },
  },
  // ── audit log ──
  {
    name: 'GET /api/v1/audit',
    call: async () => ({ method: 'GET', url: '/api/v1/audit?limit=200' }),
    expect: status(200, { Viewer: 403, Editor: 403 }),
    check: (res, actor) => {
      const entries = AuditEntrySchema.array().parse(res.json());
      expect(entries.length).toBeGreaterThan(0);
      // A SuperAdmin's ?domain= hint (A) is honoured; B's Admin reads B's log whatever it says.
      expect(entries.every((e) => e.domain === domainOf(actor))).toBe(true);
    },
  },
];

/** The web client's logging hints, all pointing at domain A. */
function withHints(url: string): string {
  const hints = new URLSearchParams({
    domain: a.domain.id,
    department: a.department.id,
    user: as.Viewer.user.id,
    email: as.Viewer.user.id,
  });
  return `${url}${url.includes('?') ? '&' : '?'}${hints.toString()}`;
}

async function run(actor: Actor, call: Call) {
  return t.app.inject({
    method: call.method,
    url: withHints(call.url),
    headers: {
      domain: a.domain.id,
      department: a.department.id,
      ...(actor === 'anonymous' ? {} : as[actor].headers),
    },
    ...(call.body === undefined ? {} : { payload: call.body as object }),
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeDomain(t.ctx);
  b = await makeDomain(t.ctx);
  for (const role of ['Viewer', 'Editor', 'Admin', 'SuperAdmin'] as const) {
    as[role] = await makeUser(t.ctx, { role, domain: a });
  }
  as.otherAdmin = await makeUser(t.ctx, { role: 'Admin', domain: b });
  await makeUser(t.ctx, { domain: b });
  // Something in each domain's log, so a scoped read has something to leave out.
  for (const who of [as.Admin, as.otherAdmin]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/department',
      headers: who.headers,
      payload: { displayName: `Seed ${uniq()}` },
    });
    expect(res.statusCode).toBe(201);
  }
});

afterAll(async () => {
  await t?.close();
});

describe('organisation management: every endpoint as every role', () => {
  const rows = CASES.flatMap((c) =>
    ACTORS.map((actor) => ({ c, actor, label: `${actor}: ${c.name} → ${c.expect[actor]}` })),
  );

  it.each(rows)('$label', async ({ c, actor }) => {
    const call = await c.call(actor);
    const before = await snapshotOrganisation(t.ctx);
    const res = await run(actor, call);
    const want = c.expect[actor];
    expect(res.statusCode, res.body).toBe(want);
    if (want >= 400) {
      expect(ErrorBodySchema.parse(res.json()).error.status).toBe(want);
      expect(await snapshotOrganisation(t.ctx)).toEqual(before);
      return;
    }
    await c.check?.(res, actor);
    if (c.audited) {
      const me = as[actor as Exclude<Actor, 'anonymous'>];
      const [entry] = await t.ctx.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, c.audited), eq(auditEntries.actorId, me.user.id)))
        .orderBy(desc(auditEntries.at))
        .limit(1);
      expect(entry, `audit entry for ${c.audited}`).toBeDefined();
      if (call.target) expect(entry?.targetId).toBe(call.target);
    }
  });

  it('the table names every endpoint of the issue, and each exists', () => {
    const endpoints = [
      'GET /api/v1/user',
      'POST /api/v1/user',
      'GET /api/v1/user/{id}',
      'PUT /api/v1/user/{id}',
      'DELETE /api/v1/user/{id}',
      'POST /api/v1/user/{id}/invitation',
      'POST /api/v1/user/{id}/sessions/revoke-all',
      'GET /api/v1/domain',
      'GET /api/v1/domain/{id}',
      'POST /api/v1/domain',
      'PUT /api/v1/domain/{id}',
      'DELETE /api/v1/domain/{id}',
      'GET /api/v1/department',
      'POST /api/v1/department',
      'PUT /api/v1/department/{id}',
      'DELETE /api/v1/department/{id}',
      'GET /api/v1/settings/profile',
      'PUT /api/v1/settings/profile',
      'GET /api/v1/settings/sessions',
      'DELETE /api/v1/settings/sessions/{id}',
      'POST /api/v1/settings/sessions/revoke-all',
      'GET /api/v1/settings/eula',
      'POST /api/v1/settings/eula/accept',
      'GET /api/v1/settings/domain',
      'PUT /api/v1/settings/domain',
      'GET /api/v1/audit',
    ];
    const inTable = new Set(CASES.map((c) => c.name.split(' ').slice(0, 2).join(' ')));
    expect([...inTable].sort()).toEqual([...endpoints].sort());
    for (const e of endpoints) {
      const [method, path] = e.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
      expect(t.app.hasRoute({ method, url: path.replace('{id}', ':id') }), e).toBe(true);
    }
  });
});
