import {
  type Actor,
  administersDomain,
  assignableRoles,
  editableRoles as editableRolesFor,
  managesUser as managesUserRule,
  type Role,
  type User,
  userActions as userActionsFor,
} from '@assistente/contracts';

// The rules are the server's own (packages/contracts/src/policies.ts): this only adapts the API's
// user records to them, so the grid hides exactly what the server would refuse.

type Person = Pick<User, '_id' | 'role' | 'domain'>;

const actorOf = (user: Person): Actor => ({ id: user._id, role: user.role, domain: user.domain });

export { assignableRoles };

/** A SuperAdmin manages everyone; an Admin the non-SuperAdmins of their own domain. */
export function managesUser(caller: Person, target: Person): boolean {
  return managesUserRule(actorOf(caller), actorOf(target));
}

/** What the caller may do to one row of the grid (the server decides; this only hides what it refuses). */
export function userActions(caller: Person, target: Person & Pick<User, 'active' | 'invitePending'>) {
  const allowed = userActionsFor(actorOf(caller), actorOf(target));
  return {
    edit: allowed.edit,
    changeRole: allowed.changeRole,
    changeDepartment: allowed.changeDepartment,
    changeActive: allowed.changeActive,
    remove: allowed.remove,
    /**
     * Only someone who has not set a password yet (the server answers 409 otherwise, and "Forgot
     * password" is their way); a deactivated user must be reactivated first.
     */
    invite: allowed.invite && target.active && target.invitePending === true,
    revokeSessions: allowed.revokeSessions,
    /** Legal hold: an Admin (or SuperAdmin) over someone they manage, themselves excepted. */
    legalHold: allowed.changeActive,
    /** Export their data (a data-subject request): an Admin of their domain, a SuperAdmin anyone's. */
    exportData: administersDomain(actorOf(caller), target.domain),
  };
}

/** Roles offered when editing: nobody raises their own role. */
export function editableRoles(caller: Person, target: Person): Role[] {
  return editableRolesFor(actorOf(caller), actorOf(target));
}
