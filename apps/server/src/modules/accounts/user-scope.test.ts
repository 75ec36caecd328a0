import { type Role, Roles, seesUser } from '@assistente/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import type { UserCaller, UserRow } from '../../lib/caller.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser } from '../../test/factories.ts';
import { userScope } from './store.ts';

// The SQL scope of users (accounts/store.ts) against the contracts' rule it is built from, over
// every role × every target (each role, in the caller's domain and another, and a visitor's row):
// if either changes alone, this fails.

let t: TestApp;
let everyone: UserRow[];

beforeAll(async () => {
  t = await buildTestApp();
  const home = await makeDomain(t.ctx);
  const away = await makeDomain(t.ctx);
  for (const domain of [home, away]) {
    for (const role of Roles) await makeUser(t.ctx, { domain, role });
  }
  await t.ctx.db.insert(users).values({
    id: `va:v1:${home.domain.id}`,
    email: `va:v1:${home.domain.id}`,
    displayName: 'Visitor',
    domainId: home.domain.id,
    departmentId: '',
    role: 'Viewer',
    type: 'visitor',
    active: true,
    creator: { name: 'Test', email: 'test@example.com' },
    eula: {
      accept: true,
      timestamp: new Date().toISOString(),
      version: home.domain.eulaVersion,
      pendingRevision: false,
      pendingTimestamp: null,
      isPrivacyPolicy: true,
    },
  });
  everyone = await t.ctx.db.select().from(users);
});

afterAll(async () => {
  await t?.close();
});

const callerOf = (row: UserRow): UserCaller =>
  ({ kind: 'user', user: row, domain: { id: row.domainId }, role: row.role as Role }) as UserCaller;

describe('the users SQL scope says what the contracts’ rule says', () => {
  it.each(Roles)(
    'a %s sees exactly the rows seesUser allows (people only, never a visitor’s row)',
    async (role) => {
      const callers = everyone.filter((u) => u.role === role && u.type !== 'visitor');
      expect(callers.length).toBe(2);
      for (const me of callers) {
        const caller = callerOf(me);
        const actor = { id: me.id, role, domain: me.domainId };
        const rows = await t.ctx.db.select({ id: users.id }).from(users).where(userScope(caller));
        const expected = everyone
          .filter((u) => u.type !== 'visitor' && seesUser(actor, { id: u.id, domain: u.domainId }))
          .map((u) => u.id);
        expect(rows.map((r) => r.id).sort()).toEqual(expected.sort());
      }
    },
  );
});
