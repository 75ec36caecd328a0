import { describe, expect, it } from 'vitest';
import {
  type Actor,
  administersDomain,
  createsSantitos,
  editableRoles,
  editsSantito,
  isAdmin,
  type ModelAccessRules,
  managesUser,
  mayGrantRole,
  modelAllowed,
  OPEN_MODEL_ACCESS,
  readsAudit,
  spansDomains,
  userActions,
} from './policies.ts';
import { type Role, Roles } from './roles.ts';

const person = (role: Role, domain = 'acme.com', id = `${role.toLowerCase()}@${domain}`): Actor => ({
  id,
  role,
  domain,
});

/** Every role, each against a Viewer of its own domain and one of another domain. */
const table = Roles.map((role) => ({
  role,
  actor: person(role),
  sameDomain: person('Viewer', 'acme.com', 'v@acme.com'),
  otherDomain: person('Viewer', 'other.com', 'v@other.com'),
}));

describe('policies, role by role and domain by domain', () => {
  it.each(table)('$role: admin APIs, other domains', ({ role, actor }) => {
    expect(isAdmin(actor)).toBe(role === 'Admin' || role === 'SuperAdmin');
    expect(spansDomains(actor)).toBe(role === 'SuperAdmin');
    expect(administersDomain(actor, 'acme.com')).toBe(role === 'Admin' || role === 'SuperAdmin');
    expect(administersDomain(actor, 'other.com')).toBe(role === 'SuperAdmin');
    expect(readsAudit(actor, 'other.com')).toBe(role === 'SuperAdmin');
  });

  it.each(table)(
    '$role: managing a Viewer of the same and of another domain',
    ({ role, actor, sameDomain, otherDomain }) => {
      const admin = role === 'Admin' || role === 'SuperAdmin';
      expect(managesUser(actor, sameDomain)).toBe(admin);
      expect(managesUser(actor, otherDomain)).toBe(role === 'SuperAdmin');
      expect(userActions(actor, sameDomain)).toMatchObject({
        read: admin,
        edit: admin,
        changeRole: admin,
        remove: admin,
        changeType: role === 'SuperAdmin',
        moveDomain: role === 'SuperAdmin',
        acceptEula: role === 'SuperAdmin',
      });
      expect(userActions(actor, otherDomain)).toMatchObject({
        read: role === 'SuperAdmin',
        edit: role === 'SuperAdmin',
        remove: role === 'SuperAdmin',
      });
    },
  );

  it.each(table)('$role: santitos', ({ role, actor }) => {
    const editor = role !== 'Viewer';
    expect(createsSantitos(actor)).toBe(editor);
    expect(editsSantito(actor, { authorId: actor.id })).toBe(true);
    expect(editsSantito(actor, { authorId: 'someone@acme.com' })).toBe(isAdmin(actor));
  });

  it('an Admin never manages a SuperAdmin, even one of their own domain', () => {
    expect(managesUser(person('Admin'), person('SuperAdmin'))).toBe(false);
    expect(managesUser(person('SuperAdmin', 'other.com'), person('SuperAdmin'))).toBe(true);
  });

  it('nobody acts on themself where a manager would: deactivate, delete, move department', () => {
    const admin = person('Admin');
    expect(userActions(admin, admin)).toMatchObject({
      read: true,
      edit: true,
      acceptEula: true,
      changeActive: false,
      remove: false,
      revokeSessions: false,
      changeDepartment: false,
    });
    const root = person('SuperAdmin');
    expect(userActions(root, root).changeDepartment).toBe(true);
  });

  it('roles: an Admin grants up to Admin, a SuperAdmin any, and nobody raises their own', () => {
    const admin = person('Admin');
    const viewer = person('Viewer');
    expect(mayGrantRole(admin, viewer, 'Admin')).toBe(true);
    expect(mayGrantRole(admin, viewer, 'SuperAdmin')).toBe(false);
    expect(mayGrantRole(person('SuperAdmin'), viewer, 'SuperAdmin')).toBe(true);
    expect(mayGrantRole(person('Editor'), viewer, 'Viewer')).toBe(false);
    expect(editableRoles(admin, admin)).toEqual(['Viewer', 'Editor', 'Admin']);
    const selfEditor = { ...person('Admin'), role: 'Editor' as const };
    expect(mayGrantRole(selfEditor, selfEditor, 'Admin')).toBe(false);
  });
});

describe('modelAllowed', () => {
  const access: ModelAccessRules = {
    rules: [
      { model: 'p1:big', roles: ['Admin'], departments: ['finance'] },
      { model: 'openai:*', roles: ['Editor'] },
      { model: 'p1:shut' },
    ],
    default: 'deny',
  };
  const who = (role: Role | null, departmentId: string | null = null) => ({ role, departmentId });

  it('opens a ruled model to the roles it names OR the departments it names, nobody else', () => {
    expect(modelAllowed(access, who('Admin'), 'p1:big')).toBe(true);
    expect(modelAllowed(access, who('Viewer', 'finance'), 'p1:big')).toBe(true);
    expect(modelAllowed(access, who('Viewer', 'sales'), 'p1:big')).toBe(false);
    expect(modelAllowed(access, who('Editor'), 'p1:big')).toBe(false);
    expect(modelAllowed(access, who(null, null), 'p1:big')).toBe(false);
    expect(modelAllowed(access, who('Admin'), 'p1:shut')).toBe(false);
  });

  it('lets a SuperAdmin use every model', () => {
    for (const m of ['p1:big', 'p1:shut', 'p2:other'])
      expect(modelAllowed(access, who('SuperAdmin'), m)).toBe(true);
  });

  it('matches provider:* by the id or the provider kind; the exact rule first; default for the rest', () => {
    expect(modelAllowed(access, who('Editor'), 'openai:gpt')).toBe(true);
    expect(modelAllowed(access, who('Editor'), 'p9:gpt', 'openai')).toBe(true);
    expect(modelAllowed(access, who('Viewer'), 'p9:gpt', 'openai')).toBe(false);
    expect(
      modelAllowed(
        { ...access, rules: [...access.rules, { model: 'openai:mini', roles: ['Viewer'] }] },
        who('Viewer'),
        'openai:mini',
      ),
    ).toBe(true);
    expect(modelAllowed(access, who('Admin'), 'p2:other')).toBe(false);
    expect(modelAllowed({ ...access, default: 'allow' }, who('Viewer'), 'p2:other')).toBe(true);
    expect(modelAllowed(OPEN_MODEL_ACCESS, who(null), 'any:model')).toBe(true);
  });
});
