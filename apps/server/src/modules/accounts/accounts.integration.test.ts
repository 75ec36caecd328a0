import {
  DepartmentSchema,
  DomainSchema,
  ErrorBodySchema,
  type Role,
  type User,
  UserSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import type { TestDomain, TestUser } from '../../test/factories.ts';
import { makeDepartment, makeDomain, makeUser } from '../../test/factories.ts';

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let premiumListed: TestDomain;
let aSales: Awaited<ReturnType<typeof makeDepartment>>;
let bSales: Awaited<ReturnType<typeof makeDepartment>>;
const as: Record<Role, TestUser> = {} as Record<Role, TestUser>;
let otherViewer: TestUser;
let otherAdmin: TestUser;

const ROLES: Role[] = ['Viewer', 'Editor', 'Admin', 'SuperAdmin'];
const USER_NOT_FOUND = { error: { status: 404, code: 'USER_NOT_FOUND', message: 'User not found' } };
const DOMAIN_NOT_FOUND = { error: { status: 404, code: 'DOMAIN_NOT_FOUND', message: 'Domain not found' } };

/** The web client's logging hints, pointing at another domain: they must never widen access. */
const spoofHeaders = (d: string) => ({ domain: d, department: 'x' });
const spoofQuery = (d: string, email = 'someone@else.com') =>
  `domain=${encodeURIComponent(d)}&department=y&user=${encodeURIComponent(email)}&email=${encodeURIComponent(email)}`;

function get(url: string, who?: TestUser, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { ...(who?.headers ?? {}), ...headers } });
}
function put(url: string, body: unknown, who?: TestUser) {
  return t.app.inject({ method: 'PUT', url, headers: who?.headers ?? {}, payload: body as object });
}
const userUrl = (id: string) => `/api/v1/user/${encodeURIComponent(id)}`;

async function stored(id: string) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, id));
  return row;
}

async function fetchUser(id: string): Promise<User> {
  const res = await get(userUrl(id), as.SuperAdmin);
  expect(res.statusCode).toBe(200);
  return UserSchema.parse(res.json());
}

beforeAll(async () => {
  t = await buildTestApp({ PREMIUM_DOMAINS: 'listed.example.org, other.example' });
  a = await makeDomain(t.ctx);
  b = await makeDomain(t.ctx);
  premiumListed = await makeDomain(t.ctx, { id: 'listed.example.org' });
  aSales = await makeDepartment(t.ctx, a.domain.id, 'Vendas');
  bSales = await makeDepartment(t.ctx, b.domain.id, 'Vendas B');
  for (const role of ROLES) as[role] = await makeUser(t.ctx, { role, domain: a });
  otherViewer = await makeUser(t.ctx, { role: 'Viewer', domain: b });
  otherAdmin = await makeUser(t.ctx, { role: 'Admin', domain: b });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/v1/user/{id}', () => {
  it.each(ROLES)('a %s reads their own record, by id or by email in any case', async (role) => {
    const me = as[role];
    for (const id of [me.user.id, me.user.email.toUpperCase()]) {
      const res = await get(userUrl(id), me);
      expect(res.statusCode).toBe(200);
      const body = UserSchema.strict().parse(res.json());
      expect(body).toMatchObject({
        _id: me.user.id,
        email: me.user.email,
        domain: a.domain.id,
        department: a.department.id,
        role,
        active: true,
        type: 'user',
      });
    }
  });

  it.each(['Viewer', 'Editor'] as const)(
    'a %s cannot see a colleague: the same 404 as a missing user',
    async (role) => {
      const colleague = await makeUser(t.ctx, { domain: a });
      const res = await get(userUrl(colleague.user.id), as[role]);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(USER_NOT_FOUND);
      const missing = await get(userUrl('nobody@nowhere.com'), as[role]);
      expect(missing.json()).toEqual(USER_NOT_FOUND);
    },
  );

  it('an Admin sees users of their domain but not of another one', async () => {
    expect((await get(userUrl(as.Viewer.user.id), as.Admin)).statusCode).toBe(200);
    const res = await get(userUrl(otherViewer.user.id), as.Admin);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(USER_NOT_FOUND);
  });

  it('a SuperAdmin sees users of every domain; a missing user is 404 User not found', async () => {
    expect((await get(userUrl(otherViewer.user.id), as.SuperAdmin)).statusCode).toBe(200);
    const res = await get(userUrl('missing@nowhere.com'), as.SuperAdmin);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(USER_NOT_FOUND);
  });

  it('a user of another domain cannot see this domain’s users', async () => {
    for (const who of [otherViewer, otherAdmin]) {
      const res = await get(userUrl(as.Viewer.user.id), who);
      expect(res.statusCode).toBe(404);
    }
  });

  it('Domain/Department headers and query hints never widen access', async () => {
    const url = `${userUrl(otherViewer.user.id)}?${spoofQuery(b.domain.id, otherViewer.user.id)}`;
    for (const who of [as.Viewer, as.Admin]) {
      const res = await get(url, who, spoofHeaders(b.domain.id));
      expect(res.statusCode).toBe(404);
    }
    // …and they do not break a legitimate call either.
    const own = await get(
      `${userUrl(as.Viewer.user.id)}?${spoofQuery(a.domain.id, as.Viewer.user.id)}`,
      as.Viewer,
      {
        domain: a.domain.id,
        department: a.department.id,
      },
    );
    expect(own.statusCode).toBe(200);
  });

  it('unauthenticated calls get 401 in the error shape', async () => {
    const res = await get(userUrl(as.Viewer.user.id));
    expect(res.statusCode).toBe(401);
    expect(ErrorBodySchema.parse(res.json()).error.code).toBe('UNAUTHENTICATED');
    const garbage = await get(userUrl(as.Viewer.user.id), undefined, { authorization: 'Bearer not.a.jwt' });
    expect(garbage.statusCode).toBe(401);
    // The token in x-endpoint-api-userinfo alone does not authenticate.
    const hdr = await get(userUrl(as.Viewer.user.id), undefined, {
      'x-endpoint-api-userinfo': as.Viewer.idToken,
    });
    expect(hdr.statusCode).toBe(401);
  });
});

describe('PUT /api/v1/user/{id}', () => {
  it('anyone may change their own name and accept the EULA; the acceptance time is the server’s', async () => {
    for (const role of ROLES) {
      const me = await makeUser(t.ctx, { role, domain: a, eulaAccepted: false });
      const before = await fetchUser(me.user.id);
      const started = Date.now();
      const res = await put(
        userUrl(me.user.id),
        {
          ...before,
          displayName: `Renamed ${role}`,
          eula: {
            ...before.eula,
            accept: true,
            pendingRevision: false,
            timestamp: '1999-01-01T00:00:00.000Z',
          },
        },
        me,
      );
      expect(res.statusCode).toBe(200);
      const body = UserSchema.parse(res.json());
      expect(body.displayName).toBe(`Renamed ${role}`);
      expect(body.eula.accept).toBe(true);
      expect(body.eula.pendingRevision).toBe(false);
      expect(Date.parse(body.eula.timestamp ?? '')).toBeGreaterThanOrEqual(started - 1000);
      expect((await stored(me.user.id))?.displayName).toBe(`Renamed ${role}`);
    }
  });

  it.each([
    ['role', { role: 'Admin' }],
    ['department', { department: 'aSales' }],
    ['active', { active: false }],
    ['domain', { domain: 'b' }],
    ['type', { type: 'bot' }],
  ] as const)(
    'a Viewer or Editor may not change their own %s: 403 and nothing changes',
    async (_f, change) => {
      for (const role of ['Viewer', 'Editor'] as const) {
        const me = await makeUser(t.ctx, { role, domain: a });
        const before = await fetchUser(me.user.id);
        const patch = { ...change } as Record<string, unknown>;
        if (patch.department) patch.department = aSales.id;
        if (patch.domain) patch.domain = b.domain.id;
        const res = await put(userUrl(me.user.id), { ...before, displayName: 'Sneaky', ...patch }, me);
        expect(res.statusCode).toBe(403);
        expect(ErrorBodySchema.parse(res.json()).error.code).toBe('FORBIDDEN');
        expect(await fetchUser(me.user.id)).toEqual(before);
      }
    },
  );

  it('clearing pendingRevision without accepting is refused', async () => {
    const me = await makeUser(t.ctx, { domain: a, eulaAccepted: false });
    const before = await fetchUser(me.user.id);
    const res = await put(
      userUrl(me.user.id),
      { ...before, eula: { ...before.eula, pendingRevision: false } },
      me,
    );
    expect(res.statusCode).toBe(400);
    expect(await fetchUser(me.user.id)).toEqual(before);
  });

  it.each(['Viewer', 'Editor'] as const)('a %s cannot update a colleague (404, unchanged)', async (role) => {
    const colleague = await makeUser(t.ctx, { domain: a });
    const before = await fetchUser(colleague.user.id);
    const res = await put(userUrl(colleague.user.id), { ...before, displayName: 'Hacked' }, as[role]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(USER_NOT_FOUND);
    expect(await fetchUser(colleague.user.id)).toEqual(before);
  });

  it('an Admin manages role (up to Admin), department, active and name in their domain', async () => {
    const target = await makeUser(t.ctx, { domain: a });
    const before = await fetchUser(target.user.id);
    const res = await put(
      userUrl(target.user.id),
      { ...before, role: 'Admin', department: aSales.id, displayName: 'Promoted', active: true },
      as.Admin,
    );
    expect(res.statusCode).toBe(200);
    expect(UserSchema.parse(res.json())).toMatchObject({
      role: 'Admin',
      department: aSales.id,
      displayName: 'Promoted',
    });
    const row = await stored(target.user.id);
    expect(row).toMatchObject({ role: 'Admin', departmentId: aSales.id, displayName: 'Promoted' });
  });

  it('an Admin may not grant SuperAdmin, move domains, change type, email, creator or someone’s EULA', async () => {
    const target = await makeUser(t.ctx, { domain: a, eulaAccepted: false });
    const before = await fetchUser(target.user.id);
    const attempts: Array<Partial<User>> = [
      { role: 'SuperAdmin' },
      { domain: b.domain.id, department: bSales.id },
      { type: 'service' },
      { email: 'other@example.com' },
      { creator: { name: 'Me', email: as.Admin.user.email } },
      { eula: { ...before.eula, accept: true, pendingRevision: false } },
    ];
    for (const change of attempts) {
      const res = await put(userUrl(target.user.id), { ...before, displayName: 'X', ...change }, as.Admin);
      expect(res.statusCode, JSON.stringify(change)).toBe(403);
    }
    expect(await fetchUser(target.user.id)).toEqual(before);
  });

  it('an Admin may only pick an existing, active department of the user’s domain', async () => {
    const target = await makeUser(t.ctx, { domain: a });
    const before = await fetchUser(target.user.id);
    const closed = await makeDepartment(t.ctx, a.domain.id, 'Fechado', { active: false });
    for (const department of [bSales.id, 'no-such-department', closed.id]) {
      const res = await put(userUrl(target.user.id), { ...before, department }, as.Admin);
      expect(res.statusCode).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    expect(await fetchUser(target.user.id)).toEqual(before);
  });

  it('an Admin cannot touch a SuperAdmin of their domain, nor deactivate themselves', async () => {
    const sa = await fetchUser(as.SuperAdmin.user.id);
    const res = await put(userUrl(sa._id), { ...sa, role: 'Viewer' }, as.Admin);
    expect(res.statusCode).toBe(403);
    const res2 = await put(userUrl(sa._id), { ...sa, active: false }, as.Admin);
    expect(res2.statusCode).toBe(403);
    expect(await fetchUser(sa._id)).toEqual(sa);

    const admin = await makeUser(t.ctx, { role: 'Admin', domain: a });
    const me = await fetchUser(admin.user.id);
    const res3 = await put(userUrl(me._id), { ...me, active: false }, admin);
    expect(res3.statusCode).toBe(403);
    expect(await fetchUser(me._id)).toEqual(me);
  });

  it('an Admin of another domain gets 404 and changes nothing', async () => {
    const before = await fetchUser(as.Viewer.user.id);
    const res = await put(userUrl(before._id), { ...before, role: 'Admin' }, otherAdmin);
    expect(res.statusCode).toBe(404);
    expect(await fetchUser(before._id)).toEqual(before);
  });

  it('a SuperAdmin may move a user to another domain and grant SuperAdmin', async () => {
    const target = await makeUser(t.ctx, { domain: a });
    const before = await fetchUser(target.user.id);
    const res = await put(
      userUrl(target.user.id),
      { ...before, domain: b.domain.id, department: bSales.id, role: 'SuperAdmin', type: 'service' },
      as.SuperAdmin,
    );
    expect(res.statusCode).toBe(200);
    expect(await stored(target.user.id)).toMatchObject({
      domainId: b.domain.id,
      departmentId: bSales.id,
      role: 'SuperAdmin',
      type: 'service',
    });
    // The department must belong to the new domain.
    const again = await fetchUser(target.user.id);
    const bad = await put(userUrl(target.user.id), { ...again, domain: a.domain.id }, as.SuperAdmin);
    expect(bad.statusCode).toBe(400);
    const missingDomain = await put(
      userUrl(target.user.id),
      { ...again, domain: 'nowhere.example', department: a.department.id },
      as.SuperAdmin,
    );
    expect(missingDomain.statusCode).toBe(400);
    expect(await fetchUser(target.user.id)).toEqual(again);
  });

  it('nobody changes a user’s email or creator', async () => {
    const target = await makeUser(t.ctx, { domain: a });
    const before = await fetchUser(target.user.id);
    for (const change of [{ email: 'new@example.com' }, { creator: { name: 'x', email: 'y' } }]) {
      const res = await put(userUrl(target.user.id), { ...before, ...change }, as.SuperAdmin);
      expect(res.statusCode).toBe(403);
    }
    expect(await fetchUser(target.user.id)).toEqual(before);
  });

  it('bad bodies get a 400 in the error shape and change nothing', async () => {
    const me = await makeUser(t.ctx, { domain: a });
    const before = await fetchUser(me.user.id);
    const bodies: unknown[] = [
      { ...before, isAdmin: true },
      { ...before, eula: { ...before.eula, extra: 1 } },
      { ...before, displayName: '' },
      { ...before, role: 'God' },
      { ...before, active: 'yes' },
      { displayName: 'only this' },
      { ...before, _id: 'someone@else.com' },
      [],
    ];
    for (const body of bodies) {
      const res = await put(userUrl(me.user.id), body, as.SuperAdmin);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.status).toBe(400);
    }
    const notJson = await t.app.inject({
      method: 'PUT',
      url: userUrl(me.user.id),
      headers: { ...me.headers, 'content-type': 'application/json' },
      payload: '{"displayName":',
    });
    expect(notJson.statusCode).toBe(400);
    const noBody = await t.app.inject({ method: 'PUT', url: userUrl(me.user.id), headers: me.headers });
    expect(noBody.statusCode).toBe(400);
    expect(await fetchUser(me.user.id)).toEqual(before);
  });

  it('unauthenticated PUT is 401 and changes nothing', async () => {
    const before = await fetchUser(as.Viewer.user.id);
    const res = await put(userUrl(before._id), { ...before, displayName: 'Anon' });
    expect(res.statusCode).toBe(401);
    expect(await fetchUser(before._id)).toEqual(before);
  });
});

describe('GET /api/v1/domain/{id}', () => {
  it.each(ROLES)('a %s reads their own domain', async (role) => {
    const res = await get(`/api/v1/domain/${a.domain.id}?${spoofQuery(b.domain.id)}`, as[role]);
    expect(res.statusCode).toBe(200);
    const body = DomainSchema.strict().parse(res.json());
    expect(body).toMatchObject({ _id: a.domain.id, domain: a.domain.id, premium: false, active: true });
  });

  it.each(['Viewer', 'Editor', 'Admin'] as const)(
    'a %s cannot read another domain, spoofed or not',
    async (role) => {
      for (const headers of [{}, spoofHeaders(b.domain.id)]) {
        const res = await get(`/api/v1/domain/${b.domain.id}?${spoofQuery(b.domain.id)}`, as[role], headers);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(DOMAIN_NOT_FOUND);
      }
    },
  );

  it('a SuperAdmin reads any domain; unknown ones are 404', async () => {
    expect((await get(`/api/v1/domain/${b.domain.id}`, as.SuperAdmin)).statusCode).toBe(200);
    const res = await get('/api/v1/domain/nowhere.example', as.SuperAdmin);
    expect(res.json()).toEqual(DOMAIN_NOT_FOUND);
  });

  it('premium is the effective value: the stored flag or the PREMIUM_DOMAINS allow-list', async () => {
    const res = await get(`/api/v1/domain/${premiumListed.domain.id}`, as.SuperAdmin);
    expect(DomainSchema.parse(res.json()).premium).toBe(true);
    const flagged = await makeDomain(t.ctx, { premium: true });
    const res2 = await get(`/api/v1/domain/${flagged.domain.id}`, as.SuperAdmin);
    expect(DomainSchema.parse(res2.json()).premium).toBe(true);
  });

  it('unauthenticated is 401', async () => {
    expect((await get(`/api/v1/domain/${a.domain.id}`)).statusCode).toBe(401);
  });
});

describe('GET /api/v1/department', () => {
  it.each(ROLES)('a %s lists their own domain’s departments, whatever the hints say', async (role) => {
    const res = await get(
      `/api/v1/department?${spoofQuery(b.domain.id)}`,
      as[role],
      spoofHeaders(b.domain.id),
    );
    expect(res.statusCode).toBe(200);
    const list = DepartmentSchema.array().parse(res.json());
    const expected = role === 'SuperAdmin' ? b.domain.id : a.domain.id;
    expect(list.every((d) => d.domain === expected)).toBe(true);
    expect(res.headers['x-total-count']).toBe(String(list.length));
  });

  it('only a SuperAdmin’s ?domain= picks the domain', async () => {
    const sa = await get(`/api/v1/department?domain=${b.domain.id}`, as.SuperAdmin);
    expect(
      DepartmentSchema.array()
        .parse(sa.json())
        .map((d) => d._id),
    ).toEqual(expect.arrayContaining([b.department.id, bSales.id]));
    const admin = await get(`/api/v1/department?domain=${b.domain.id}`, as.Admin);
    const ids = DepartmentSchema.array()
      .parse(admin.json())
      .map((d) => d._id);
    expect(ids).not.toContain(bSales.id);
    expect(ids).toContain(aSales.id);
    const other = await get('/api/v1/department', otherViewer);
    expect(
      DepartmentSchema.array()
        .parse(other.json())
        .map((d) => d._id),
    ).not.toContain(aSales.id);
    const unknown = await get('/api/v1/department?domain=nowhere.example', as.SuperAdmin);
    expect(unknown.statusCode).toBe(404);
  });

  it('pages with limit and cursor, searches with q, and reports the total', async () => {
    const d = await makeDomain(t.ctx, { department: 'Alpha' });
    for (const name of ['Beta', 'Gamma', 'Delta', 'Epsilon', 'beta two'])
      await makeDepartment(t.ctx, d.domain.id, name);
    const boss = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await get(
        `/api/v1/department?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        boss,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('6');
      seen.push(
        ...DepartmentSchema.array()
          .parse(res.json())
          .map((x) => x.displayName),
      );
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    const search = await get('/api/v1/department?q=BETA', boss);
    expect(
      DepartmentSchema.array()
        .parse(search.json())
        .map((x) => x.displayName)
        .sort(),
    ).toEqual(['Beta', 'beta two']);
    expect(search.headers['x-total-count']).toBe('2');
    const like = await get('/api/v1/department?q=%25', boss);
    expect(like.json()).toEqual([]);
  });

  it('bad paging parameters are 400', async () => {
    for (const q of ['limit=0', 'limit=abc', 'limit=1000', 'cursor=%%%', 'cursor=bm90LWEtY3Vyc29y']) {
      const res = await get(`/api/v1/department?${q}`, as.Viewer);
      expect(res.statusCode, q).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.status).toBe(400);
    }
  });

  it('unauthenticated is 401', async () => {
    expect((await get('/api/v1/department')).statusCode).toBe(401);
  });
});
