import {
  ErrorBodySchema,
  IdentityErrorBodySchema,
  InvitationSentSchema,
  SessionsRevokedSchema,
  type User,
  UserCreatedSchema,
  UserSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, departments, identityAccounts, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import type { TestDomain, TestUser } from '../../test/factories.ts';
import { makeDepartment, makeDomain, makeUser } from '../../test/factories.ts';
import { type SunkMail, startSmtpSink } from '../../test/smtp-sink.ts';
import { snapshotOrganisation } from '../../test/snapshot.ts';

let t: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let a: TestDomain;
let b: TestDomain;
let admin: TestUser;
let superAdmin: TestUser;

const userUrl = (id: string) => `/api/v1/user/${encodeURIComponent(id)}`;
const signIn = (email: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/identity/v1/accounts:signInWithPassword',
    payload: { email, password, returnSecureToken: true },
  });

function oobCodeOf(mail: SunkMail): string {
  const link = /http:\/\/localhost:3999\/auth\/reset-password\?oobCode=[A-Za-z0-9_%-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error('no set-password link in the mail');
  return new URL(link).searchParams.get('oobCode') ?? '';
}

let n = 0;
const newEmail = (d: TestDomain = a) => `invitee${++n}-${Date.now()}@${d.domain.id}`;
const createBody = (email: string, over: Record<string, unknown> = {}) => ({
  email,
  displayName: 'Convidada',
  domain: a.domain.id,
  department: a.department.id,
  role: 'Editor',
  ...over,
});

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ SMTP_URL: sink.url });
  a = await makeDomain(t.ctx);
  b = await makeDomain(t.ctx);
  admin = await makeUser(t.ctx, { role: 'Admin', domain: a });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin', domain: a });
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('invitations', () => {
  it('an invited user gets a set-password link by SMTP, sets the password and signs in', async () => {
    const email = newEmail();
    const res = await t.call('POST', '/api/v1/user', admin, createBody(email));
    expect(res.statusCode, res.body).toBe(201);
    const created = UserCreatedSchema.parse(res.json());
    expect(created).toMatchObject({
      _id: email,
      email,
      domain: a.domain.id,
      department: a.department.id,
      role: 'Editor',
      active: true,
      invitationSent: true,
      creator: { name: admin.user.displayName, email: admin.user.email },
    });
    expect(created.eula).toMatchObject({ accept: false, pendingRevision: true });

    // The identity account exists, without a password: nobody can sign in before the link is used.
    const [account] = await t.ctx.db.select().from(identityAccounts).where(eq(identityAccounts.email, email));
    expect(account?.passwordHash).toBeNull();

    const mail = await sink.waitFor((m) => m.to.includes(email));
    // The page the link opens welcomes the newcomer rather than speaking of a reset.
    expect(mail.text).toMatch(/reset-password\?oobCode=[A-Za-z0-9_%-]+&invite=1/);
    const code = oobCodeOf(mail);
    const check = await t.call('POST', '/identity/v1/accounts:resetPassword', undefined, { oobCode: code });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ email });
    const set = await t.call('POST', '/identity/v1/accounts:resetPassword', undefined, {
      oobCode: code,
      newPassword: 'a brand new passphrase',
    });
    expect(set.statusCode, set.body).toBe(200);

    const signedIn = await signIn(email, 'a brand new passphrase');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { idToken } = signedIn.json() as { idToken: string };
    const me = await t.call('GET', userUrl(email), undefined, undefined, {
      authorization: `Bearer ${idToken}`,
    });
    expect(me.statusCode).toBe(200);
    expect(UserSchema.parse(me.json()).email).toBe(email);

    // With a password set, resending the invitation is refused: "Forgot password" is the way.
    const again = await t.call('POST', `${userUrl(email)}/invitation`, admin);
    expect(again.statusCode).toBe(409);
  });

  it.each([
    [
      'the ?locale= of the inviter’s screen',
      { url: '?locale=es' },
      undefined,
      'Te invitaron a usar Assistente',
    ],
    ['the inviter’s saved language', {}, 'en' as const, 'You were invited to use Assistente'],
    [
      'the inviter’s Accept-Language',
      { acceptLanguage: 'en-US,en;q=0.9' },
      undefined,
      'You were invited to use',
    ],
    ['pt-BR by default', {}, undefined, 'defina sua senha no link abaixo'],
  ] as Array<[string, { url?: string; acceptLanguage?: string }, 'en' | undefined, string]>)(
    'the invitation is written in the inviter’s language: %s',
    async (_what, hint, saved, phrase) => {
      const inviter = await makeUser(t.ctx, {
        role: 'Admin',
        domain: a,
        ...(saved ? { locale: saved } : {}),
      });
      const email = newEmail();
      const res = await t.call(
        'POST',
        `/api/v1/user${hint.url ?? ''}`,
        inviter,
        createBody(email),
        hint.acceptLanguage ? { 'accept-language': hint.acceptLanguage } : {},
      );
      expect(res.statusCode, res.body).toBe(201);
      const mail = await sink.waitFor((m) => m.to.includes(email));
      expect(mail.text).toContain(phrase);
    },
  );

  it('an explicit ?locale= wins over the saved language', async () => {
    const inviter = await makeUser(t.ctx, { role: 'Admin', domain: a, locale: 'en' });
    const email = newEmail();
    expect((await t.call('POST', '/api/v1/user?locale=es', inviter, createBody(email))).statusCode).toBe(201);
    expect((await sink.waitFor((m) => m.to.includes(email))).text).toContain(
      'Te invitaron a usar Assistente',
    );
  });

  it('resending mails a new working link and is audited', async () => {
    const invitee = await makeUser(t.ctx, { domain: a, withPassword: false });
    const res = await t.call('POST', `${userUrl(invitee.user.id)}/invitation?locale=en`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(InvitationSentSchema.parse(res.json())).toEqual({ email: invitee.user.email, sent: true });
    const mail = await sink.waitFor((m) => m.to.includes(invitee.user.email));
    expect(mail.subject).toBe('You were invited to Assistente');
    const check = await t.call('POST', '/identity/v1/accounts:resetPassword', undefined, {
      oobCode: oobCodeOf(mail),
    });
    expect(check.statusCode).toBe(200);
    const [entry] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.targetId, invitee.user.id));
    expect(entry).toMatchObject({ action: 'user.invite', actorId: admin.user.id, domainId: a.domain.id });
  });

  it('lists an invitee who never set a password as pending, and no longer once they have', async () => {
    const invitee = await makeUser(t.ctx, { domain: a, withPassword: false });
    const signedUp = await makeUser(t.ctx, { domain: a });
    const listed = async () =>
      UserSchema.array().parse(
        (await t.call('GET', `/api/v1/user?limit=200&q=${encodeURIComponent('@')}`, admin)).json(),
      );
    const before = await listed();
    expect(before.find((u) => u._id === invitee.user.id)?.invitePending).toBe(true);
    expect(before.find((u) => u._id === signedUp.user.id)?.invitePending).toBeUndefined();
    // The web sends a user it read back whole: the derived flag is accepted and never stored.
    const read = before.find((u) => u._id === invitee.user.id);
    const put = await t.call('PUT', userUrl(invitee.user.id), admin, {
      ...read,
      displayName: 'Ainda convidado',
    });
    expect(put.statusCode, put.body).toBe(200);
    await t.ctx.identity.setPassword(invitee.uid, 'Uma-senha-nova-9');
    expect((await listed()).find((u) => u._id === invitee.user.id)?.invitePending).toBeUndefined();
  });

  it('a deactivated user is not re-invited (409)', async () => {
    const invitee = await makeUser(t.ctx, { domain: a, withPassword: false, active: false });
    const res = await t.call('POST', `${userUrl(invitee.user.id)}/invitation`, admin);
    expect(res.statusCode).toBe(409);
  });
});

describe('creating users', () => {
  it('refuses bad bodies with 400 in the error shape and changes nothing', async () => {
    const email = newEmail();
    const bodies: unknown[] = [
      { ...createBody(email), isAdmin: true },
      { ...createBody(email), role: 'God' },
      { ...createBody(email), displayName: 42 },
      { ...createBody(email), displayName: '' },
      { ...createBody(email), email: 'not-an-email' },
      { email },
      [],
      // A department of another domain, an inactive one, a missing one, a missing domain.
      createBody(email, { department: b.department.id }),
      createBody(email, { department: 'nope' }),
      createBody(email, { domain: 'nowhere.example', department: a.department.id }),
    ];
    const closed = await makeDepartment(t.ctx, a.domain.id, 'Fechado', { active: false });
    bodies.push(createBody(email, { department: closed.id }));
    for (const body of bodies) {
      const before = await snapshotOrganisation(t.ctx);
      const res = await t.call('POST', '/api/v1/user', superAdmin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.status).toBe(400);
      expect(await snapshotOrganisation(t.ctx)).toEqual(before);
    }
    const big = await t.call('POST', '/api/v1/user', superAdmin, {
      ...createBody(email),
      displayName: 'x'.repeat(70_000),
    });
    expect(big.statusCode).toBe(413);
  });

  it('an Admin never creates a SuperAdmin nor in another domain; a duplicate email is 409', async () => {
    const email = newEmail();
    for (const body of [
      createBody(email, { role: 'SuperAdmin' }),
      createBody(email, { domain: b.domain.id, department: b.department.id }),
    ]) {
      const before = await snapshotOrganisation(t.ctx);
      const res = await t.call('POST', '/api/v1/user', admin, body);
      expect(res.statusCode).toBe(403);
      expect(await snapshotOrganisation(t.ctx)).toEqual(before);
    }
    const other = await makeUser(t.ctx, { domain: b });
    for (const who of [admin, superAdmin]) {
      const before = await snapshotOrganisation(t.ctx);
      const res = await t.call('POST', '/api/v1/user', who, createBody(other.user.email.toUpperCase()));
      expect(res.statusCode).toBe(409);
      expect(await snapshotOrganisation(t.ctx)).toEqual(before);
    }
  });

  it('a SuperAdmin creates a domain’s first Admin in any domain', async () => {
    const c = await makeDomain(t.ctx);
    const email = newEmail(c);
    const res = await t.call(
      'POST',
      '/api/v1/user',
      superAdmin,
      createBody(email, { domain: c.domain.id, department: c.department.id, role: 'Admin' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(UserSchema.parse(res.json())).toMatchObject({ domain: c.domain.id, role: 'Admin' });
  });
});

describe('immediate effect of deactivation, demotion and deletion', () => {
  it('a deactivated user loses access on the next request and cannot sign in (USER_DISABLED)', async () => {
    const target = await makeUser(t.ctx, { domain: a });
    expect((await t.call('GET', userUrl(target.user.id), target)).statusCode).toBe(200);
    const record = UserSchema.parse((await t.call('GET', userUrl(target.user.id), admin)).json());
    const off = await t.call('PUT', userUrl(target.user.id), admin, { ...record, active: false });
    expect(off.statusCode).toBe(200);
    expect((await t.call('GET', userUrl(target.user.id), target)).statusCode).toBe(401);
    const denied = await signIn(target.user.email, target.password);
    expect(IdentityErrorBodySchema.parse(denied.json()).error.message).toBe('USER_DISABLED');
    // Reactivation lets them back in.
    const on = await t.call('PUT', userUrl(target.user.id), admin, { ...record, active: true });
    expect(on.statusCode).toBe(200);
    expect((await signIn(target.user.email, target.password)).statusCode).toBe(200);
  });

  it('a demoted Admin loses the admin APIs on the next request', async () => {
    const boss = await makeUser(t.ctx, { role: 'Admin', domain: a });
    expect((await t.call('GET', '/api/v1/user', boss)).statusCode).toBe(200);
    const record = UserSchema.parse((await t.call('GET', userUrl(boss.user.id), admin)).json());
    expect(
      (await t.call('PUT', userUrl(boss.user.id), admin, { ...record, role: 'Viewer' })).statusCode,
    ).toBe(200);
    expect((await t.call('GET', '/api/v1/user', boss)).statusCode).toBe(403);
  });

  it('deletion removes the user and the identity account, ends sessions, and is audited', async () => {
    const target = await makeUser(t.ctx, { domain: a });
    const del = await t.call('DELETE', userUrl(target.user.id), admin);
    expect(del.statusCode).toBe(204);
    expect(await t.ctx.db.select().from(users).where(eq(users.id, target.user.id))).toEqual([]);
    expect(await t.ctx.identity.findAccount(target.uid)).toBeUndefined();
    expect((await t.call('GET', userUrl(target.user.id), target)).statusCode).toBe(401);
    expect((await signIn(target.user.email, target.password)).statusCode).toBe(400);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/identity/v1/token',
      payload: { grant_type: 'refresh_token', refresh_token: target.refreshToken },
    });
    expect(refreshed.statusCode).toBe(400);
    expect((await t.call('GET', userUrl(target.user.id), admin)).statusCode).toBe(404);
    expect((await t.call('DELETE', userUrl(target.user.id), admin)).statusCode).toBe(404);
    const [entry] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.targetId, target.user.id));
    expect(entry).toMatchObject({ action: 'user.delete', actorId: admin.user.id, after: null });
    expect(entry?.before).toMatchObject({ _id: target.user.id, role: 'Viewer' });
  });

  it('nobody deletes themself; an Admin never deletes a SuperAdmin', async () => {
    for (const [who, target, want] of [
      [admin, admin, 403],
      [superAdmin, superAdmin, 403],
      [admin, superAdmin, 403],
    ] as const) {
      const before = await snapshotOrganisation(t.ctx);
      expect((await t.call('DELETE', userUrl(target.user.id), who)).statusCode).toBe(want);
      expect(await snapshotOrganisation(t.ctx)).toEqual(before);
    }
  });

  it('an Admin signs a user out everywhere: their token stops working at once', async () => {
    const target = await makeUser(t.ctx, { domain: a });
    await t.ctx.identity.issueSession(target.uid, { kind: 'editor', name: 'VS Code' });
    const res = await t.call('POST', `${userUrl(target.user.id)}/sessions/revoke-all`, admin);
    expect(res.statusCode).toBe(200);
    expect(SessionsRevokedSchema.parse(res.json()).revoked).toBe(2);
    expect((await t.call('GET', userUrl(target.user.id), target)).statusCode).toBe(401);
  });

  it('the last active SuperAdmin cannot be demoted or deactivated', async () => {
    const solo = await buildTestApp();
    try {
      const d = await makeDomain(solo.ctx);
      const only = await makeUser(solo.ctx, { role: 'SuperAdmin', domain: d });
      const got = await solo.app.inject({ url: userUrl(only.user.id), headers: only.headers });
      const me = UserSchema.parse(got.json());
      const res = await solo.app.inject({
        method: 'PUT',
        url: userUrl(only.user.id),
        headers: only.headers,
        payload: { ...me, role: 'Admin' },
      });
      expect(res.statusCode).toBe(409);
      const second = await makeUser(solo.ctx, { role: 'SuperAdmin', domain: d });
      const ok = await solo.app.inject({
        method: 'PUT',
        url: userUrl(only.user.id),
        headers: second.headers,
        payload: { ...me, role: 'Admin' },
      });
      expect(ok.statusCode, ok.body).toBe(200);
    } finally {
      await solo.close();
    }
  });
});

describe('department repair and own-department changes', () => {
  it('a SuperAdmin whose department is gone moves themself to the first department', async () => {
    const d = await makeDomain(t.ctx, { department: 'Alpha' });
    const gone = await makeDepartment(t.ctx, d.domain.id, 'Gone');
    const sa = await makeUser(t.ctx, { role: 'SuperAdmin', domain: d, department: gone });
    // The department disappears under them (as the web app's repair expects to find).
    await t.ctx.db.delete(departments).where(eq(departments.id, gone.id));
    const list = await t.call('GET', `/api/v1/department?domain=${d.domain.id}`, sa);
    const first = (list.json() as Array<{ _id: string }>)[0];
    expect(first?._id).toBe(d.department.id);
    const me = UserSchema.parse((await t.call('GET', userUrl(sa.user.id), sa)).json());
    const res = await t.call('PUT', userUrl(sa.user.id), sa, { ...me, department: first?._id });
    expect(res.statusCode, res.body).toBe(200);
    expect(UserSchema.parse(res.json()).department).toBe(d.department.id);
  });

  it.each(['Viewer', 'Editor', 'Admin'] as const)('a %s cannot change their own department', async (role) => {
    const other = await makeDepartment(t.ctx, a.domain.id, `Other ${role}`);
    const me = await makeUser(t.ctx, { role, domain: a });
    const record: User = UserSchema.parse((await t.call('GET', userUrl(me.user.id), me)).json());
    const before = await snapshotOrganisation(t.ctx);
    const res = await t.call('PUT', userUrl(me.user.id), me, { ...record, department: other.id });
    expect(res.statusCode).toBe(403);
    expect(await snapshotOrganisation(t.ctx)).toEqual(before);
  });
});

describe('GET /api/v1/user: paging, sorting, search', () => {
  let d: TestDomain;
  let boss: TestUser;
  const names = [
    'Ana Souza',
    'ana lima',
    'Bruno Alves',
    'Carla Dias',
    'Carla Dias',
    'Diego 50% Off',
    'Éder Melo',
    'Fábio Reis',
    'Gabi_Rocha',
    'Zeca Pagodinho',
  ];

  beforeAll(async () => {
    d = await makeDomain(t.ctx);
    boss = await makeUser(t.ctx, { role: 'Admin', domain: d, displayName: 'Zz Boss' });
    for (const [i, name] of names.entries()) {
      await makeUser(t.ctx, {
        domain: d,
        displayName: name,
        email: `p${String(i).padStart(2, '0')}@${d.domain.id}`,
        role: (['Viewer', 'Editor', 'Admin'] as const)[i % 3],
        withPassword: false,
      });
    }
  });

  async function all(query: string, limit: number): Promise<{ ids: string[]; totals: string[] }> {
    const ids: string[] = [];
    const totals: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const url = `/api/v1/user?limit=${limit}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await t.call('GET', url, boss);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['access-control-expose-headers']).toBe('X-Total-Count, X-Next-Cursor');
      totals.push(String(res.headers['x-total-count']));
      ids.push(
        ...UserSchema.array()
          .parse(res.json())
          .map((u) => u._id),
      );
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (!cursor) break;
    }
    return { ids, totals };
  }

  it.each([
    'sort=displayName&order=asc',
    'sort=displayName&order=desc',
    'sort=email&order=asc',
    'sort=email&order=desc',
    'sort=role&order=asc',
    'sort=role&order=desc',
    'sort=createdAt&order=asc',
    'sort=createdAt&order=desc',
  ])('pages of 3 with %s are the one-page order, without gaps or repeats', async (sort) => {
    const whole = await all(sort, 200);
    expect(whole.ids).toHaveLength(names.length + 1);
    const paged = await all(sort, 3);
    expect(paged.ids).toEqual(whole.ids);
    expect(new Set(paged.totals)).toEqual(new Set([String(names.length + 1)]));
    const list = UserSchema.array().parse(
      (await t.call('GET', `/api/v1/user?limit=200&${sort}`, boss)).json(),
    );
    if (sort.startsWith('sort=role')) {
      const rank = list.map((u) => ['Viewer', 'Editor', 'Admin', 'SuperAdmin'].indexOf(u.role));
      const sorted = [...rank].sort((x, y) => x - y);
      expect(rank).toEqual(sort.endsWith('asc') ? sorted : sorted.reverse());
    }
    if (sort.startsWith('sort=email')) {
      const emails = list.map((u) => u._id);
      const sorted = [...emails].sort();
      expect(emails).toEqual(sort.endsWith('asc') ? sorted : sorted.reverse());
    }
  });

  it('a cursor forged to carry a value its sort cannot cast is a 400, not a database error', async () => {
    const sort = 'sort=createdAt&order=desc';
    const first = await t.call('GET', `/api/v1/user?limit=2&${sort}`, boss);
    const [payload, mac] = String(first.headers['x-next-cursor']).split('.');
    const [tag, , id] = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as string[];
    const unsigned = Buffer.from(JSON.stringify([tag, 'not a timestamp', id])).toString('base64url');
    for (const cursor of [`${unsigned}.${mac}`, unsigned]) {
      const res = await t.call(
        'GET',
        `/api/v1/user?limit=2&${sort}&cursor=${encodeURIComponent(cursor)}`,
        boss,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'BAD_REQUEST', message: 'Invalid cursor' } });
    }
  });

  it('the default order is by name then id, stable for equal names', async () => {
    const list = UserSchema.array().parse((await t.call('GET', '/api/v1/user?limit=200', boss)).json());
    const carlas = list.filter((u) => u.displayName === 'Carla Dias').map((u) => u._id);
    expect(carlas).toEqual([...carlas].sort());
  });

  it('q searches name and email, case-insensitively, with LIKE wildcards taken literally', async () => {
    const q = async (s: string) => {
      const res = await t.call('GET', `/api/v1/user?limit=200&q=${encodeURIComponent(s)}`, boss);
      expect(res.statusCode).toBe(200);
      return {
        names: UserSchema.array()
          .parse(res.json())
          .map((u) => u.displayName)
          .sort(),
        total: res.headers['x-total-count'],
      };
    };
    expect((await q('ANA')).names).toEqual(['Ana Souza', 'ana lima']);
    expect((await q('ANA')).total).toBe('2');
    expect((await q('p03@')).names).toEqual(['Carla Dias']);
    expect((await q('50%')).names).toEqual(['Diego 50% Off']);
    expect((await q('%')).names).toEqual(['Diego 50% Off']);
    expect((await q('_')).names).toEqual(['Gabi_Rocha']);
    expect((await q('nobody here')).names).toEqual([]);
  });

  it('filters by role and active', async () => {
    const res = await t.call('GET', '/api/v1/user?limit=200&role=Admin', boss);
    const list = UserSchema.array().parse(res.json());
    expect(list.length).toBeGreaterThan(1);
    expect(list.every((u) => u.role === 'Admin')).toBe(true);
    const inactive = await t.call('GET', '/api/v1/user?active=false', boss);
    expect(inactive.json()).toEqual([]);
  });

  it('bad paging parameters and cursors of another sort are 400', async () => {
    const first = await t.call('GET', '/api/v1/user?limit=2&sort=email', boss);
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    for (const q of [
      'limit=0',
      'limit=1000',
      'limit=x',
      'sort=password',
      'order=sideways',
      'role=God',
      'active=maybe',
      'cursor=%%%',
      `cursor=${encodeURIComponent(cursor)}`,
      `cursor=${encodeURIComponent(cursor)}&sort=email&order=desc`,
    ]) {
      const res = await t.call('GET', `/api/v1/user?${q}`, boss);
      expect(res.statusCode, q).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.status).toBe(400);
    }
    expect(
      (await t.call('GET', `/api/v1/user?sort=email&cursor=${encodeURIComponent(cursor)}`, boss)).statusCode,
    ).toBe(200);
  });

  it('an Admin lists their own domain whatever ?domain= says; a SuperAdmin may pick one', async () => {
    const spoofed = await t.call('GET', `/api/v1/user?limit=200&domain=${a.domain.id}`, boss, undefined, {
      domain: a.domain.id,
    });
    expect(
      UserSchema.array()
        .parse(spoofed.json())
        .every((u) => u.domain === d.domain.id),
    ).toBe(true);
    const picked = await t.call('GET', `/api/v1/user?limit=200&domain=${d.domain.id}`, superAdmin);
    expect(UserSchema.array().parse(picked.json())).toHaveLength(names.length + 1);
    const everyone = await t.call('GET', '/api/v1/user?limit=200', superAdmin);
    const domainsSeen = new Set(
      UserSchema.array()
        .parse(everyone.json())
        .map((u) => u.domain),
    );
    expect(domainsSeen.has(a.domain.id) && domainsSeen.has(d.domain.id)).toBe(true);
    expect((await t.call('GET', '/api/v1/user?domain=nowhere.example', superAdmin)).statusCode).toBe(404);
  });
});
