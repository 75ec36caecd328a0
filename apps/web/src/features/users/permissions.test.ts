import {
  administersDomain,
  managesUser as managesRule,
  userActions as rulesFor,
  type User,
} from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { user } from '../../test/fixtures.ts';
import { assignableRoles, editableRoles, managesUser, userActions } from './permissions.ts';

const base = user({
  _id: 'x@acme.com',
  displayName: 'X',
  email: 'x@acme.com',
  department: 'd1',
  creator: { name: '', email: '' },
});
const make = (patch: Partial<User>): User => ({ ...base, ...patch });
const admin = make({ _id: 'admin@acme.com', email: 'admin@acme.com', role: 'Admin' });
const superAdmin = make({ _id: 'root@acme.com', email: 'root@acme.com', role: 'SuperAdmin' });
const viewer = make({ _id: 'v@acme.com', email: 'v@acme.com', invitePending: true });
const otherDomain = make({ _id: 'v@other.com', email: 'v@other.com', domain: 'other.com' });

describe('user permissions', () => {
  it('lets an Admin give roles up to Admin and a SuperAdmin any', () => {
    expect(assignableRoles('Admin')).toEqual(['Viewer', 'Editor', 'Admin']);
    expect(assignableRoles('SuperAdmin')).toEqual(['Viewer', 'Editor', 'Admin', 'SuperAdmin']);
    expect(assignableRoles('Editor')).toEqual([]);
  });

  it('an Admin manages their own domain’s users, never a SuperAdmin or another domain', () => {
    expect(managesUser(admin, viewer)).toBe(true);
    expect(managesUser(admin, otherDomain)).toBe(false);
    expect(managesUser(admin, superAdmin)).toBe(false);
    expect(managesUser(superAdmin, otherDomain)).toBe(true);
  });

  it('nobody deactivates, deletes or moves themself (but a SuperAdmin may change their department)', () => {
    expect(userActions(admin, admin)).toMatchObject({
      edit: true,
      changeActive: false,
      remove: false,
      changeDepartment: false,
    });
    expect(userActions(superAdmin, superAdmin)).toMatchObject({ changeDepartment: true, remove: false });
    expect(userActions(admin, viewer)).toMatchObject({
      edit: true,
      changeActive: true,
      remove: true,
      invite: true,
    });
    expect(userActions(admin, otherDomain)).toMatchObject({ edit: false, remove: false, invite: false });
  });

  it('nobody raises their own role', () => {
    expect(editableRoles(admin, admin)).toEqual(['Viewer', 'Editor', 'Admin']);
    expect(editableRoles(superAdmin, superAdmin)).toEqual(['Viewer', 'Editor', 'Admin', 'SuperAdmin']);
    const editorAdmin = make({ role: 'Editor' });
    expect(editableRoles(admin, editorAdmin)).toEqual(['Viewer', 'Editor', 'Admin']);
  });

  it('an Admin exports the data of anyone of their domain, a SuperAdmin anyone’s; others nobody’s', () => {
    expect(userActions(admin, superAdmin).exportData).toBe(true);
    expect(userActions(admin, admin).exportData).toBe(true);
    expect(userActions(admin, otherDomain).exportData).toBe(false);
    expect(userActions(superAdmin, otherDomain).exportData).toBe(true);
    expect(userActions(viewer, viewer).exportData).toBe(false);
  });

  it('does not offer a new invitation to a deactivated user', () => {
    expect(userActions(admin, make({ ...viewer, active: false })).invite).toBe(false);
  });

  it('offers a new invitation only to someone who has not set a password yet', () => {
    const accepted: User = { ...viewer };
    delete accepted.invitePending;
    expect(userActions(admin, accepted).invite).toBe(false);
    expect(userActions(admin, viewer).invite).toBe(true);
  });
});

describe('the grid’s permissions are the server’s rules', () => {
  const people = [admin, superAdmin, viewer, otherDomain, make({ role: 'Editor' })];
  const actor = (u: User) => ({ id: u._id, role: u.role, domain: u.domain });
  it.each(people.flatMap((c) => people.map((t) => [`${c._id} → ${t._id}`, c, t] as const)))(
    '%s',
    (_name, caller, target) => {
      const rules = rulesFor(actor(caller), actor(target));
      expect(userActions(caller, target)).toEqual({
        edit: rules.edit,
        changeRole: rules.changeRole,
        changeDepartment: rules.changeDepartment,
        changeActive: rules.changeActive,
        remove: rules.remove,
        invite: rules.invite && target.active && target.invitePending === true,
        revokeSessions: rules.revokeSessions,
        legalHold: rules.changeActive,
        exportData: administersDomain(actor(caller), target.domain),
      });
      expect(managesUser(caller, target)).toBe(managesRule(actor(caller), actor(target)));
    },
  );
});
