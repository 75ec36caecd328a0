import { type Role, Roles } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { accountsPolicy } from '../modules/accounts/policy.ts';
import { auditPolicy } from '../modules/audit/policy.ts';
import { providersPolicy } from '../modules/providers/policy.ts';
import { santitosPolicy } from '../modules/santitos/policy.ts';
import { settingsPolicy } from '../modules/settings/policy.ts';
import type { DomainRow, UserCaller, UserRow } from './caller.ts';
import { AppError } from './errors.ts';

// The server's policies over every role, for the caller's own domain and another one. The rules
// themselves are tested in packages/contracts; this checks each policy asks them as it should.

const row = (id: string, role: Role, domainId: string) => ({ id, role, domainId }) as UserRow;

function caller(role: Role, domainId = 'acme.com'): UserCaller {
  const user = row(`${role.toLowerCase()}@${domainId}`, role, domainId);
  return {
    kind: 'user',
    uid: `uid-${user.id}`,
    sessionId: 's',
    email: user.id,
    user,
    domain: { id: domainId, premium: true, active: true } as DomainRow,
    role,
    premium: true,
  };
}

const admin = (role: Role) => role === 'Admin' || role === 'SuperAdmin';
const superAdmin = (role: Role) => role === 'SuperAdmin';

describe.each(Roles)('%s', (role) => {
  const me = caller(role);
  const ownViewer = row('v@acme.com', 'Viewer', 'acme.com');
  const otherViewer = row('v@other.com', 'Viewer', 'other.com');

  it('accounts: admin APIs, domains, users of the own and of another domain', () => {
    expect(accountsPolicy.can(me, 'administer', null)).toBe(admin(role));
    expect(accountsPolicy.can(me, 'spanDomains', null)).toBe(superAdmin(role));
    expect(accountsPolicy.can(me, 'administerDomain', 'acme.com')).toBe(admin(role));
    expect(accountsPolicy.can(me, 'administerDomain', 'other.com')).toBe(superAdmin(role));
    expect(accountsPolicy.can(me, 'manageUser', ownViewer)).toBe(admin(role));
    expect(accountsPolicy.can(me, 'manageUser', otherViewer)).toBe(superAdmin(role));
    expect(accountsPolicy.can(me, 'changeUser', { target: me.user, field: 'rename' })).toBe(true);
    expect(accountsPolicy.can(me, 'changeUser', { target: me.user, field: 'changeActive' })).toBe(false);
    expect(accountsPolicy.can(me, 'grantRole', { target: ownViewer, role: 'SuperAdmin' })).toBe(
      superAdmin(role),
    );
  });

  it('santitos: create, edit own and others’, see all; never another domain’s', () => {
    expect(santitosPolicy.can(me, 'create', null)).toBe(role !== 'Viewer');
    expect(santitosPolicy.can(me, 'edit', { authorId: me.user.id, domainId: 'acme.com' })).toBe(true);
    expect(santitosPolicy.can(me, 'edit', { authorId: 'x@acme.com', domainId: 'acme.com' })).toBe(
      admin(role),
    );
    expect(santitosPolicy.can(me, 'edit', { authorId: me.user.id, domainId: 'other.com' })).toBe(false);
    expect(santitosPolicy.can(me, 'seeAll', null)).toBe(admin(role));
  });

  it('providers, audit and domain settings: an Admin’s own domain, a SuperAdmin’s any', () => {
    expect(providersPolicy.can(me, 'manage', 'acme.com')).toBe(admin(role));
    expect(providersPolicy.can(me, 'manage', 'other.com')).toBe(superAdmin(role));
    expect(settingsPolicy.can(me, 'manageDomain', 'acme.com')).toBe(admin(role));
    expect(settingsPolicy.can(me, 'manageDomain', 'other.com')).toBe(superAdmin(role));
    expect(auditPolicy.can(me, 'read', 'acme.com')).toBe(admin(role));
    expect(auditPolicy.can(me, 'read', 'other.com')).toBe(superAdmin(role));
  });

  it('authorize refuses with 403 FORBIDDEN and the message given', () => {
    if (superAdmin(role))
      return expect(() => accountsPolicy.authorize(me, 'spanDomains', null)).not.toThrow();
    try {
      accountsPolicy.authorize(me, 'spanDomains', null, 'nope');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: 'FORBIDDEN', status: 403, message: 'nope' });
    }
  });
});
