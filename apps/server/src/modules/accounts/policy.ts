import {
  type AccountRef,
  administersDomain,
  isAdmin,
  managesUser,
  mayGrantRole,
  type Role,
  spansDomains,
  userActions,
} from '@assistente/contracts';
import type { UserCaller, UserRow } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import { type AccountCaller, actor, definePolicy } from '../../lib/policy.ts';

/** A stored user as the contracts' rules see it. */
const accountRef = (row: Pick<UserRow, 'id' | 'role' | 'domainId'>): AccountRef => ({
  id: row.id,
  role: row.role,
  domain: row.domainId,
});

export type UserField = keyof ReturnType<typeof userActions>;

/** Who may do what to users, domains and departments (rules in packages/contracts/src/policies.ts). */
export const accountsPolicy = definePolicy({
  /** The admin APIs (user and department lists, invitations, …): refused before any lookup. */
  administer: (caller: AccountCaller, _: null) => isAdmin(actor(caller)),
  /** Every domain: create and delete domains, filter lists by another domain. */
  spanDomains: (caller: AccountCaller, _: null) => spansDomains(actor(caller)),
  /** Users, departments and settings of one domain. */
  administerDomain: (caller: AccountCaller, domainId: string) => administersDomain(actor(caller), domainId),
  manageUser: (caller: AccountCaller, target: UserRow) => managesUser(actor(caller), accountRef(target)),
  /** One field of a user's record (see `userActions`). */
  changeUser: (caller: AccountCaller, { target, field }: { target: UserRow; field: UserField }) =>
    userActions(actor(caller), accountRef(target))[field],
  grantRole: (
    caller: AccountCaller,
    { target, role }: { target: Pick<UserRow, 'id' | 'role' | 'domainId'>; role: Role },
  ) => mayGrantRole(actor(caller), accountRef(target), role),
});

export const { can, authorize } = accountsPolicy;

/**
 * The domain an administrative call acts on. `?domain=` is also the hint the web client adds to
 * every call: naming one's own domain (or none) is the caller's domain; only a SuperAdmin may name
 * another, and anyone else naming one is refused rather than silently served their own.
 */
export function actingDomain(caller: UserCaller, requested: string | undefined): string {
  const want = requested?.trim().toLowerCase();
  if (!want || want === caller.domain.id) return caller.domain.id;
  if (!can(caller, 'spanDomains', null)) throw forbidden('You may only manage your own organisation');
  return want;
}

/** The `?domain=` filter of a list: a SuperAdmin's alone (for anyone else it is a logging hint). */
export function requestedDomainFilter(caller: UserCaller, requested: string | undefined): string | undefined {
  const want = requested?.trim().toLowerCase();
  return want && can(caller, 'spanDomains', null) ? want : undefined;
}
