import type { Eula, User, UserUpdate } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller, UserRow } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import { type AuditMeta, changedFields, recordAudit } from '../audit/index.ts';
import { toUser } from './dto.ts';
import {
  eulaClearOnlyByAccepting,
  idMismatch,
  noActiveDepartmentIn,
  unknownDomainField,
  userNotFound,
} from './errors.ts';
import { can, type UserField } from './policy.ts';
import { type AccountsState, normalizeId } from './state.ts';
import { accountsStore, type UserPatch } from './store.ts';
import { lastSuperAdminGuard, lockDepartment } from './users.ts';

const EULA_KEYS = [
  'accept',
  'timestamp',
  'version',
  'pendingRevision',
  'pendingTimestamp',
  'isPrivacyPolicy',
] as const;

function sameEula(a: Eula, b: Eula): boolean {
  return EULA_KEYS.every((k) => a[k] === b[k]);
}

const sameCreator = (a: UserRow['creator'], b: UserUpdate['creator']) =>
  a.name === b.name && a.email === b.email;

/**
 * The full body; each changed field is checked against the caller's rights and one refused
 * field refuses the whole request, so a denied update changes nothing.
 */
export async function updateUser(
  state: AccountsState,
  caller: UserCaller,
  id: string,
  body: UserUpdate,
  meta: AuditMeta,
): Promise<User> {
  const { ctx, store } = state;
  const userId = normalizeId(id);
  const current = await store.findUser(caller, userId);
  if (!current) throw userNotFound();
  if (body._id !== undefined && normalizeId(body._id) !== userId) {
    throw idMismatch();
  }

  const may = (field: UserField) => can(caller, 'changeUser', { target: current, field });

  const patch: UserPatch = {};
  if (normalizeId(body.email) !== current.id) throw forbidden('The email of a user cannot be changed');
  if (!sameCreator(current.creator, body.creator)) throw forbidden('The creator of a user cannot be changed');

  if (body.displayName !== current.displayName) {
    if (!may('rename')) throw forbidden('You may not change this user’s name');
    patch.displayName = body.displayName;
  }
  if (body.active !== current.active) {
    if (!can(caller, 'manageUser', current)) throw forbidden('You may not activate or deactivate this user');
    if (!may('changeActive')) throw forbidden('You cannot deactivate your own account');
    patch.active = body.active;
  }
  if (body.role !== current.role) {
    if (!may('changeRole')) throw forbidden('You may not change this user’s role');
    if (!can(caller, 'grantRole', { target: current, role: body.role })) {
      throw forbidden(
        current.id === caller.user.id
          ? 'You cannot raise your own role'
          : 'Only a SuperAdmin can grant SuperAdmin',
      );
    }
    patch.role = body.role;
  }
  if (body.type !== current.type) {
    if (!may('changeType')) throw forbidden('Only a SuperAdmin can change the user type');
    patch.type = body.type;
  }
  const targetDomain = normalizeId(body.domain);
  if (targetDomain !== current.domainId) {
    if (!may('moveDomain')) throw forbidden('Only a SuperAdmin can move a user to another domain');
    const domain = await store.findDomain(caller, targetDomain);
    if (!domain) throw unknownDomainField();
    patch.domainId = targetDomain;
  }
  if (body.department !== current.departmentId || patch.domainId !== undefined) {
    if (!can(caller, 'manageUser', current)) throw forbidden('You may not change this user’s department');
    // Department repair (docs/ARCHITECTURE.md#organisations-domains-departments-premium) is a SuperAdmin's alone: nobody else moves themself.
    if (!may('changeDepartment')) throw forbidden('You cannot change your own department');
    const department = await store.findDepartment(caller, targetDomain, body.department);
    if (!department?.active) {
      throw noActiveDepartmentIn(targetDomain);
    }
    patch.departmentId = body.department;
  }
  if (!sameEula(current.eula, body.eula)) {
    if (!may('acceptEula')) throw forbidden('Only the user can accept their terms of use');
    if (!body.eula.pendingRevision && !body.eula.accept) {
      throw eulaClearOnlyByAccepting();
    }
    // The acceptance time is the server's clock and the version the one the domain asks for now.
    const eulaDomain = body.eula.accept ? await store.findDomain(caller, targetDomain) : undefined;
    patch.eula = {
      ...body.eula,
      timestamp: body.eula.accept ? new Date().toISOString() : body.eula.timestamp,
      version: eulaDomain?.eulaVersion ?? body.eula.version,
    };
  }

  if (Object.keys(patch).length === 0) return toUser(current);
  if ((patch.role !== undefined && patch.role !== 'SuperAdmin') || patch.active === false) {
    await lastSuperAdminGuard(state, caller, current);
  }
  const updated = await ctx.db.transaction(async (tx) => {
    const s = accountsStore(tx);
    if (patch.departmentId !== undefined) {
      await lockDepartment(s, caller, patch.domainId ?? current.domainId, patch.departmentId);
    }
    const row = await s.updateUser(caller, userId, patch);
    if (!row) return undefined;
    const diff = changedFields(toUser(current), toUser(row));
    // A move between domains is recorded in both, so each domain's Admins see it.
    const touched = [...new Set([current.domainId, row.domainId])];
    await recordAudit(
      tx,
      caller,
      meta,
      touched.map((domainId) => ({
        action: 'user.update' as const,
        targetType: 'user' as const,
        targetId: row.id,
        domainId,
        ...diff,
      })),
    );
    return row;
  });
  if (!updated) throw userNotFound();
  // Demotion, a move or deactivation counts from the next request on, on every replica.
  await ctx.services.callerStates.invalidate({ email: updated.id });
  if (patch.active !== undefined) await syncIdentityDisabled(ctx, updated);
  return toUser(updated);
}

/** A deactivated user cannot sign in and loses every session; reactivation lets them sign in again. */
async function syncIdentityDisabled(ctx: AppContext, user: UserRow): Promise<void> {
  const account = await ctx.identity.findAccountByEmail(user.email);
  if (!account || account.disabled === !user.active) return;
  await ctx.identity.setDisabled(account.uid, !user.active);
  await ctx.services.callerStates.invalidate({ uid: account.uid, email: user.id });
}
