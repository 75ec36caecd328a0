import { hasRole, type Role, Roles, type User } from '@assistente/contracts';

/** The roles a caller may give (DESIGN §4): an Admin up to Admin, a SuperAdmin any. */
export function assignableRoles(caller: Role): Role[] {
  if (caller === 'SuperAdmin') return [...Roles];
  if (caller === 'Admin') return Roles.filter((role) => !hasRole(role, 'SuperAdmin'));
  return [];
}

/** A SuperAdmin manages everyone; an Admin the non-SuperAdmins of their own domain. */
export function managesUser(caller: Pick<User, 'role' | 'domain'>, target: Pick<User, 'role' | 'domain'>) {
  if (caller.role === 'SuperAdmin') return true;
  return caller.role === 'Admin' && caller.domain === target.domain && !hasRole(target.role, 'SuperAdmin');
}

/** What the caller may do to one row of the grid (the server decides; this only hides what it refuses). */
export function userActions(caller: User, target: User) {
  const self = caller._id === target._id;
  const manages = managesUser(caller, target);
  return {
    edit: manages || self,
    /** Role: nobody raises their own; the choice is capped by the caller's rights. */
    changeRole: manages,
    /** Only a SuperAdmin moves themself (department repair is theirs alone). */
    changeDepartment: manages && (!self || caller.role === 'SuperAdmin'),
    changeActive: manages && !self,
    remove: manages && !self,
    invite: manages && target.active,
    revokeSessions: manages && !self,
  };
}

/** Roles offered when editing: nobody raises their own role. */
export function editableRoles(caller: User, target: User): Role[] {
  const roles = assignableRoles(caller.role);
  if (caller._id !== target._id) return roles;
  return roles.filter((role) => role === target.role || !hasRole(role, target.role));
}
