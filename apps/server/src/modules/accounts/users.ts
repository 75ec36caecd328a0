import type {
  InvitationSent,
  Locale,
  SessionsRevoked,
  User,
  UserCreate,
  UserCreated,
  UserListQuery,
} from '@assistente/contracts';
import type { UserCaller, UserRow } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import type { Page } from '../../lib/paging.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import { toUser } from './dto.ts';
import {
  domainNotFound,
  emailTaken,
  invitationNotMailed,
  lastSuperAdmin,
  noActiveDepartment,
  passwordAlreadySet,
  reactivateFirst,
  underLegalHold,
  unknownDomainField,
  userNotFound,
} from './errors.ts';
import { callerLocale, type LocaleHints } from './locale.ts';
import { authorize, requestedDomainFilter } from './policy.ts';
import { eulaRecord, parseEmail } from './provision.ts';
import { type AccountsState, normalizeId } from './state.ts';
import { type AccountsStore, accountsStore, userCursorTag } from './store.ts';

/** The instance keeps at least one active SuperAdmin: demoting, deactivating or deleting the last one is refused. */
export async function lastSuperAdminGuard(state: AccountsState, caller: UserCaller, target: UserRow) {
  if (target.role !== 'SuperAdmin' || !target.active) return;
  if ((await state.store.countOtherActiveSuperAdmins(caller, target.id)) === 0) {
    throw lastSuperAdmin();
  }
}

/**
 * Holds the department (shared) until the transaction ends, so a concurrent delete cannot leave a
 * user in a department that no longer exists; re-checks it is still active and in the domain.
 */
export async function lockDepartment(
  s: AccountsStore,
  caller: UserCaller,
  domainId: string,
  id: string,
): Promise<void> {
  const department = await s.findDepartmentById(caller, id, { lock: 'share' });
  if (!department?.active || department.domainId !== domainId) {
    throw noActiveDepartment();
  }
}

/** Mails a set-password link; false (and logged) when the mail could not leave. */
async function sendInvitation(
  { ctx }: AccountsState,
  email: string,
  locale: Locale,
  linkBase: string,
): Promise<boolean> {
  try {
    await ctx.identity.sendPasswordResetMail(email, { locale, kind: 'invite', linkBase });
    return true;
  } catch (err) {
    ctx.log.error({ err, email }, 'accounts: the invitation mail could not be sent');
    return false;
  }
}

/** Self, an Admin of the user's domain, or a SuperAdmin; anyone else gets the same 404 as "missing". */
export async function getUser(state: AccountsState, caller: UserCaller, id: string): Promise<User> {
  const { store } = state;
  const wanted = normalizeId(id);
  // Reading oneself (every page load does) answers from the caller's state: it is dropped on
  // every change to the user, so it is as fresh as the row.
  if (wanted === caller.email) return toUser(caller.user);
  const row = await store.findUser(caller, wanted);
  if (!row) throw userNotFound();
  // Another person's row is in reach only of those who administer them.
  return toUser(row, { showHold: true });
}

/** Admin: their domain's users; SuperAdmin: everyone, or one domain with `?domain=`. */
export async function listUsers(
  state: AccountsState,
  caller: UserCaller,
  query: UserListQuery,
): Promise<Page<User>> {
  const { ctx, store } = state;
  authorize(caller, 'administer', null);
  const tag = userCursorTag(query.sort, query.order);
  const after = state.cursors.parse(tag, query.cursor, 2);
  // Only a SuperAdmin's ?domain= means anything: for everyone else it is the client's logging hint.
  const requestedDomain = requestedDomainFilter(caller, query.domain);
  if (requestedDomain && !(await store.findDomain(caller, requestedDomain))) throw domainNotFound();
  const page = await store.listUsers(caller, {
    sort: query.sort,
    order: query.order,
    limit: query.limit,
    ...(requestedDomain ? { requestedDomain } : {}),
    ...(query.q?.trim() ? { q: query.q.trim() } : {}),
    ...(query.role ? { role: query.role } : {}),
    ...(query.active === undefined ? {} : { active: query.active }),
    ...(query.departmentId ? { departmentId: query.departmentId } : {}),
    ...(after ? { after } : {}),
  });
  // Invited and never signed in: the identity module knows (its table), in one query for the page.
  const pending = await ctx.identity.awaitingPassword(page.items.map((u) => u.id));
  return state.cursors.page(tag, page, (u) =>
    toUser({ ...u, invitePending: pending.has(u.id) }, { showHold: true }),
  );
}

/**
 * Creates the identity account (no password) and the user, then mails a set-password link in
 * the inviter's language, pointing at `linkBase` (where the inviter works, see lib/origin.ts).
 * An Admin creates in their own domain, up to Admin.
 */
export async function createUser(
  state: AccountsState,
  caller: UserCaller,
  body: UserCreate,
  meta: AuditMeta,
  hints: LocaleHints,
  linkBase: string,
): Promise<UserCreated> {
  const { ctx, store } = state;
  authorize(caller, 'administer', null);
  const { email } = parseEmail(body.email);
  const domainId = normalizeId(body.domain);
  authorize(caller, 'administerDomain', domainId, 'An Admin creates users in their own domain only');
  const newcomer = { id: email, role: body.role, domainId };
  authorize(
    caller,
    'grantRole',
    { target: newcomer, role: body.role },
    'Only a SuperAdmin can grant SuperAdmin',
  );
  const domain = await store.findDomain(caller, domainId);
  if (!domain) throw unknownDomainField();
  const department = await store.findDepartment(caller, domainId, body.department);
  if (!department?.active) throw noActiveDepartment();
  // Ids are global: a user of any domain holds the email (the 409 cannot be helped).
  if (await store.userIdTaken(caller, email)) {
    throw emailTaken();
  }

  // Identity first (its own tables); undone below if the user row cannot be written.
  let account = await ctx.identity.findAccountByEmail(email);
  const createdAccount = !account;
  if (!account) {
    account = await ctx.identity.createAccount({
      email,
      displayName: body.displayName,
      emailVerified: false,
    });
  }
  let user: UserRow | undefined;
  try {
    user = await ctx.db.transaction(async (tx) => {
      const s = accountsStore(tx);
      await lockDepartment(s, caller, domainId, department.id);
      const row = await s.insertUser(caller, {
        id: email,
        email,
        displayName: body.displayName,
        domainId,
        departmentId: department.id,
        role: body.role,
        creator: { name: caller.user.displayName, email: caller.user.email },
        eula: { ...eulaRecord(false), version: domain.eulaVersion },
      });
      if (!row) return undefined;
      await recordAudit(tx, caller, meta, {
        action: 'user.create',
        targetType: 'user',
        targetId: row.id,
        domainId,
        before: null,
        after: toUser(row),
      });
      return row;
    });
  } catch (err) {
    if (createdAccount) await ctx.identity.deleteAccount(account.uid).catch(() => undefined);
    throw err;
  }
  if (!user) {
    if (createdAccount) await ctx.identity.deleteAccount(account.uid).catch(() => undefined);
    throw emailTaken();
  }
  // An account left without a user (e.g. from the admin CLI) is enabled again once it has one.
  if (account.disabled) await ctx.identity.setDisabled(account.uid, false);
  await ctx.services.callerStates.invalidate({ uid: account.uid, email });
  // The invitation is written in the inviter's language.
  const invitationSent = await sendInvitation(state, email, callerLocale(caller, hints), linkBase);
  return { ...toUser(user), invitationSent };
}

/** Mails a new set-password link to a user who has not set a password yet. */
export async function resendInvitation(
  state: AccountsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
  hints: LocaleHints,
  linkBase: string,
): Promise<InvitationSent> {
  const { ctx, store } = state;
  authorize(caller, 'administer', null);
  const target = await store.findUser(caller, normalizeId(id));
  if (!target) throw userNotFound();
  authorize(caller, 'manageUser', target, 'You may not invite this user');
  if (!target.active) throw reactivateFirst();
  let account = await ctx.identity.findAccountByEmail(target.email);
  if (!account) {
    account = await ctx.identity.createAccount({
      email: target.email,
      displayName: target.displayName,
      emailVerified: false,
    });
  }
  if (account.hasPassword) {
    throw passwordAlreadySet();
  }
  if (!(await sendInvitation(state, target.email, callerLocale(caller, hints), linkBase))) {
    throw invitationNotMailed();
  }
  // The new link is the identity service's; the record of who sent it is ours.
  await recordAudit(ctx.db, caller, meta, {
    action: 'user.invite',
    targetType: 'user',
    targetId: target.id,
    domainId: target.domainId,
  });
  return { email: target.email, sent: true };
}
/** Deletes the user and its identity account (every session ends with it). Nobody deletes themself. */
export async function deleteUser(
  state: AccountsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<void> {
  const { ctx, store } = state;
  authorize(caller, 'administer', null);
  const target = await store.findUser(caller, normalizeId(id));
  if (!target) throw userNotFound();
  if (target.id === caller.user.id) throw forbidden('You cannot delete your own account');
  authorize(caller, 'manageUser', target, 'You may not delete this user');
  await lastSuperAdminGuard(state, caller, target);
  if (target.legalHold) throw underLegalHold();
  // Their content first (docs/ARCHITECTURE.md#export-and-erasure): the row's cascade would drop
  // their attachment rows and leave the files in storage, and their ledger rows keep their id.
  await ctx.services.personalData.eraseContent(caller, { id: target.id, domainId: target.domainId });
  const deleted = await ctx.db.transaction(async (tx) => {
    const row = await accountsStore(tx).deleteUser(caller, target.id);
    if (!row) return undefined;
    await recordAudit(tx, caller, meta, {
      action: 'user.delete',
      targetType: 'user',
      targetId: row.id,
      domainId: row.domainId,
      before: toUser(row),
      after: null,
    });
    return row;
  });
  if (!deleted) throw userNotFound();
  const account = await ctx.identity.findAccountByEmail(deleted.email);
  if (account) await ctx.identity.deleteAccount(account.uid);
  await ctx.services.callerStates.invalidate({
    email: deleted.id,
    ...(account ? { uid: account.uid } : {}),
  });
}

/** Signs a user out everywhere (an Admin of their domain, or a SuperAdmin). */
export async function revokeUserSessions(
  state: AccountsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<SessionsRevoked> {
  const { ctx, store } = state;
  authorize(caller, 'administer', null);
  const target = await store.findUser(caller, normalizeId(id));
  if (!target) throw userNotFound();
  authorize(caller, 'manageUser', target, 'You may not sign this user out');
  const account = await ctx.identity.findAccountByEmail(target.email);
  const live = account ? await ctx.identity.listSessions(account.uid) : [];
  if (account) await ctx.identity.revokeAllSessions(account.uid, 'revoked_by_admin');
  await recordAudit(ctx.db, caller, meta, {
    action: 'user.sessions.revoke',
    targetType: 'user',
    targetId: target.id,
    domainId: target.domainId,
    before: { sessions: live.map((s) => s.id) },
    after: { sessions: [] },
  });
  return { revoked: live.length };
}
