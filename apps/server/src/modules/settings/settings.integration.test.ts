import {
  DomainSettingsSchema,
  ErrorBodySchema,
  EulaStatusSchema,
  ProfileSchema,
  SessionSchema,
  SessionsRevokedSchema,
  UserSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { snapshotOrganisation } from '../../test/snapshot.ts';

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let admin: TestUser;

const bearer = (idToken: string) => ({ headers: { authorization: `Bearer ${idToken}` } });

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeDomain(t.ctx);
  b = await makeDomain(t.ctx);
  admin = await makeUser(t.ctx, { role: 'Admin', domain: a });
});

afterAll(async () => {
  await t?.close();
});

describe('profile', () => {
  it('a user reads and changes their name and language', async () => {
    const me = await makeUser(t.ctx, { domain: a });
    const got = ProfileSchema.strict().parse((await t.call('GET', '/api/v1/settings/profile', me)).json());
    expect(got).toEqual({
      _id: me.user.id,
      email: me.user.email,
      displayName: me.user.displayName,
      locale: null,
      role: 'Viewer',
      domain: a.domain.id,
      department: a.department.id,
    });
    const res = await t.call('PUT', '/api/v1/settings/profile', me, {
      displayName: '  Maria  ',
      locale: 'es',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ProfileSchema.parse(res.json())).toMatchObject({ displayName: 'Maria', locale: 'es' });
    const user = UserSchema.parse((await t.call('GET', `/api/v1/user/${me.user.id}`, me)).json());
    expect(user.displayName).toBe('Maria');
  });

  it('refuses other fields, bad languages and empty bodies, changing nothing', async () => {
    const me = await makeUser(t.ctx, { domain: a });
    for (const body of [
      { role: 'Admin' },
      { displayName: 'x', role: 'Admin' },
      { locale: 'fr' },
      { displayName: '' },
      { displayName: 7 },
      {},
    ]) {
      const before = await snapshotOrganisation(t.ctx);
      const res = await t.call('PUT', '/api/v1/settings/profile', me, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.status).toBe(400);
      expect(await snapshotOrganisation(t.ctx)).toEqual(before);
    }
  });
});

describe('sessions', () => {
  it('lists browser and editor sessions with the current one marked', async () => {
    const me = await makeUser(t.ctx, { domain: a });
    const editor = await t.ctx.identity.issueSession(me.uid, {
      kind: 'editor',
      name: 'VS Code',
      ip: '10.1.2.3',
      userAgent: 'vscode/1.99',
    });
    const res = await t.call('GET', '/api/v1/settings/sessions', me);
    expect(res.statusCode).toBe(200);
    const list = SessionSchema.strict().array().parse(res.json());
    expect(list).toHaveLength(2);
    expect(list.find((s) => s.id === me.sessionId)).toMatchObject({ kind: 'web', current: true });
    expect(list.find((s) => s.id === editor.sessionId)).toMatchObject({
      kind: 'editor',
      name: 'VS Code',
      ip: '10.1.2.3',
      userAgent: 'vscode/1.99',
      current: false,
    });
    // From the editor's token, the editor session is the current one.
    const fromEditor = SessionSchema.array().parse(
      (await t.call('GET', '/api/v1/settings/sessions', bearer(editor.idToken))).json(),
    );
    expect(fromEditor.find((s) => s.current)?.id).toBe(editor.sessionId);
  });

  it('revoking one session ends it at once; another user’s session is not found', async () => {
    const me = await makeUser(t.ctx, { domain: a });
    const other = await t.ctx.identity.issueSession(me.uid, { kind: 'web', name: 'Firefox' });
    expect((await t.call('GET', '/api/v1/settings/profile', bearer(other.idToken))).statusCode).toBe(200);
    const res = await t.call('DELETE', `/api/v1/settings/sessions/${other.sessionId}`, me);
    expect(res.statusCode).toBe(204);
    expect((await t.call('GET', '/api/v1/settings/profile', bearer(other.idToken))).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v1/settings/profile', me)).statusCode).toBe(200);
    // Someone else's session: the same 404 as a missing one, and it stays alive.
    const stranger = await makeUser(t.ctx, { domain: b });
    const before = await snapshotOrganisation(t.ctx);
    expect((await t.call('DELETE', `/api/v1/settings/sessions/${stranger.sessionId}`, me)).statusCode).toBe(
      404,
    );
    expect((await t.call('DELETE', '/api/v1/settings/sessions/no-such-session', me)).statusCode).toBe(404);
    expect(await snapshotOrganisation(t.ctx)).toEqual(before);
    expect((await t.call('GET', '/api/v1/settings/profile', stranger)).statusCode).toBe(200);
  });

  it('signs out everywhere else, then everywhere', async () => {
    const me = await makeUser(t.ctx, { domain: a });
    const s2 = await t.ctx.identity.issueSession(me.uid, { kind: 'web', name: 'Phone' });
    const s3 = await t.ctx.identity.issueSession(me.uid, { kind: 'editor', name: 'VS Code' });
    const keep = await t.call('POST', '/api/v1/settings/sessions/revoke-all', me, { keepCurrent: true });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(SessionsRevokedSchema.parse(keep.json())).toEqual({ revoked: 2 });
    for (const s of [s2, s3]) {
      expect((await t.call('GET', '/api/v1/settings/profile', bearer(s.idToken))).statusCode).toBe(401);
    }
    const list = SessionSchema.array().parse((await t.call('GET', '/api/v1/settings/sessions', me)).json());
    expect(list.map((s) => s.id)).toEqual([me.sessionId]);
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/sessions/revoke-all',
      headers: me.headers,
    });
    expect(SessionsRevokedSchema.parse(all.json())).toEqual({ revoked: 1 });
    expect((await t.call('GET', '/api/v1/settings/profile', me)).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/identity/v1/token',
      payload: { grant_type: 'refresh_token', refresh_token: me.refreshToken },
    });
    expect(refreshed.statusCode).toBe(400);
  });

  it('refuses a bad revoke-all body', async () => {
    const me = await makeUser(t.ctx, { domain: a });
    const res = await t.call('POST', '/api/v1/settings/sessions/revoke-all', me, { keepCurrent: 'yes' });
    expect(res.statusCode).toBe(400);
    expect((await t.call('GET', '/api/v1/settings/profile', me)).statusCode).toBe(200);
  });
});

describe('EULA', () => {
  it('a new user accepts the current version once; the record keeps the spec’s fields', async () => {
    const me = await makeUser(t.ctx, { domain: a, eulaAccepted: false });
    const status = EulaStatusSchema.parse((await t.call('GET', '/api/v1/settings/eula', me)).json());
    expect(status.eula).toMatchObject({ accept: false, pendingRevision: true });
    const started = Date.now();
    const res = await t.call('POST', '/api/v1/settings/eula/accept', me, { version: status.currentVersion });
    expect(res.statusCode, res.body).toBe(200);
    const accepted = EulaStatusSchema.parse(res.json());
    expect(accepted.eula).toMatchObject({
      accept: true,
      version: status.currentVersion,
      pendingRevision: false,
      isPrivacyPolicy: true,
    });
    expect(Date.parse(accepted.eula.timestamp ?? '')).toBeGreaterThanOrEqual(started - 1000);
    const stale = await t.call('POST', '/api/v1/settings/eula/accept', me, { version: 'v0' });
    expect(stale.statusCode).toBe(409);
  });

  it('bumping the domain’s EULA version asks every user of the domain, and only them, to accept again', async () => {
    const d = await makeDomain(t.ctx);
    const boss = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const member = await makeUser(t.ctx, { domain: d });
    const outsider = await makeUser(t.ctx, { domain: b });
    const outsiderBefore = (await t.ctx.db.select().from(users).where(eq(users.id, outsider.user.id)))[0];

    const current = DomainSettingsSchema.parse((await t.call('GET', '/api/v1/settings/domain', boss)).json());
    expect(current).toEqual({ domain: d.domain.id, eulaVersion: 'v1', timeZone: 'America/Sao_Paulo' });
    const same = await t.call('PUT', '/api/v1/settings/domain', boss, { eulaVersion: 'v1' });
    expect(same.statusCode).toBe(200);

    const bumped = await t.call('PUT', '/api/v1/settings/domain', boss, { eulaVersion: '2026-07' });
    expect(bumped.statusCode, bumped.body).toBe(200);
    expect(DomainSettingsSchema.parse(bumped.json())).toEqual({
      domain: d.domain.id,
      eulaVersion: '2026-07',
      timeZone: 'America/Sao_Paulo',
    });

    for (const who of [boss, member]) {
      const s = EulaStatusSchema.parse((await t.call('GET', '/api/v1/settings/eula', who)).json());
      expect(s.currentVersion).toBe('2026-07');
      expect(s.eula).toMatchObject({ accept: true, version: 'v1', pendingRevision: true });
      expect(s.eula.pendingTimestamp).toBeTruthy();
      const user = UserSchema.parse((await t.call('GET', `/api/v1/user/${who.user.id}`, who)).json());
      expect(user.eula.pendingRevision).toBe(true);
    }
    expect((await t.ctx.db.select().from(users).where(eq(users.id, outsider.user.id)))[0]).toEqual(
      outsiderBefore,
    );

    // Accepting through the user record (the web app's EULA dialog) records the new version.
    const record = UserSchema.parse((await t.call('GET', `/api/v1/user/${member.user.id}`, member)).json());
    const accepted = await t.call('PUT', `/api/v1/user/${member.user.id}`, member, {
      ...record,
      eula: { ...record.eula, accept: true, pendingRevision: false },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(UserSchema.parse(accepted.json()).eula).toMatchObject({
      version: '2026-07',
      pendingRevision: false,
    });

    const [entry] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.action, 'domain.settings.update'));
    expect(entry).toMatchObject({
      actorId: boss.user.id,
      domainId: d.domain.id,
      before: { eulaVersion: 'v1' },
      after: { eulaVersion: '2026-07', usersAskedToAccept: 2 },
    });
  });

  it('the domain’s time zone: an Admin moves it, audited, and the usage days follow; the EULA stays', async () => {
    const d = await makeDomain(t.ctx);
    const boss = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const member = await makeUser(t.ctx, { domain: d });
    expect(
      (await t.call('PUT', '/api/v1/settings/domain', member, { timeZone: 'Europe/Lisbon' })).statusCode,
    ).toBe(403);
    const moved = await t.call('PUT', '/api/v1/settings/domain', boss, { timeZone: 'Europe/Lisbon' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(DomainSettingsSchema.parse(moved.json())).toEqual({
      domain: d.domain.id,
      eulaVersion: 'v1',
      timeZone: 'Europe/Lisbon',
    });
    expect(await t.ctx.services.organisation.domainTimeZone(d.domain.id)).toBe('Europe/Lisbon');
    const entries = await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.domainId, d.domain.id));
    expect(entries.find((e) => e.action === 'domain.settings.update')).toMatchObject({
      before: { timeZone: 'America/Sao_Paulo' },
      after: { timeZone: 'Europe/Lisbon' },
    });
    const s = EulaStatusSchema.parse((await t.call('GET', '/api/v1/settings/eula', member)).json());
    expect(s.eula.pendingRevision).not.toBe(true);
  });

  it('domain settings: bad versions are 400; a SuperAdmin may name a domain, an Admin naming another is 403', async () => {
    for (const body of [
      { eulaVersion: '' },
      { eulaVersion: 'v 2' },
      { eulaVersion: 2 },
      { eulaVersion: 'v2', x: 1 },
      {},
      { timeZone: 'Mars/Olympus_Mons' },
      { timeZone: 'America/Sao_Paulo', eulaVersion: '' },
    ]) {
      expect(
        (await t.call('PUT', '/api/v1/settings/domain', admin, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    const sa = await makeUser(t.ctx, { role: 'SuperAdmin', domain: a });
    const other = await t.call('GET', `/api/v1/settings/domain?domain=${b.domain.id}`, sa);
    expect(DomainSettingsSchema.parse(other.json()).domain).toBe(b.domain.id);
    // An Admin naming another domain is refused, not silently served (or changed) their own.
    const spoof = await t.call('GET', `/api/v1/settings/domain?domain=${b.domain.id}`, admin);
    expect(spoof.statusCode).toBe(403);
    const before = (await t.call('GET', '/api/v1/settings/domain', admin)).json();
    const write = await t.call('PUT', `/api/v1/settings/domain?domain=${b.domain.id}`, admin, {
      eulaVersion: '2099-01',
    });
    expect(write.statusCode).toBe(403);
    expect((await t.call('GET', '/api/v1/settings/domain', admin)).json()).toEqual(before);
    // Their own domain as the hint the web client adds to every call is fine.
    const own = await t.call('GET', `/api/v1/settings/domain?domain=${a.domain.id}`, admin);
    expect(DomainSettingsSchema.parse(own.json()).domain).toBe(a.domain.id);
    expect((await t.call('GET', '/api/v1/settings/domain?domain=nowhere.example', sa)).statusCode).toBe(404);
  });
});
