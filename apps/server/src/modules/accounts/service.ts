import type {
  Eula,
  InvitationSent,
  Locale,
  SessionsRevoked,
  User,
  UserCreate,
  UserCreated,
  UserListQuery,
  UserUpdate,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller, UserRow } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import { type AuditMeta, changedFields, recordAudit } from '../audit/index.ts';
import { toUser } from './dto.ts';
import {
  domainNotFound,
  emailTaken,
  eulaClearOnlyByAccepting,
  idMismatch,
  invitationNotMailed,
  lastSuperAdmin,
  noActiveDepartment,
  noActiveDepartmentIn,
  passwordAlreadySet,
  reactivateFirst,
  unknownDomainField,
  userNotFound,
} from './errors.ts';
import { callerLocale, type LocaleHints } from './locale.ts';
import { authorize, can, requestedDomainFilter, type UserField } from './policy.ts';
import { eulaRecord, parseEmail } from './provision.ts';
import { type AccountsStore, accountsStore, type UserPatch, userCursorTag } from './store.ts';

/** User ids are lowercased emails; domain ids lowercased DNS names. */
export const normalizeId = (id: string) => id.trim().toLowerCase();

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

export function accountsService(ctx: AppContext, store: AccountsStore = accountsStore(ctx.db)) {
  const lastSuperAdminGuard = async (caller: UserCaller, target: UserRow) => {
    if (target.role !== 'SuperAdmin' || !target.active) return;
    if ((await store.countOtherActiveSuperAdmins(caller, target.id)) === 0) {
      throw lastSuperAdmin();
    }
  };

  /** Mails a set-password link; false (and logged) when the mail could not leave. */
  const sendInvitation = async (email: string, locale: Locale, linkBase: string): Promise<boolean> => {
    try {
      await ctx.identity.sendPasswordResetMail(email, { locale, kind: 'invite', linkBase });
      return true;
    } catch (err) {
      ctx.log.error({ err, email }, 'accounts: the invitation mail could not be sent');
      return false;
    }
  };

  return {
    /** Self, an Admin of the user's domain, or a SuperAdmin; anyone else gets the same 404 as "missing". */
    async getUser(caller: UserCaller, id: string): Promise<User> {
      const wanted = normalizeId(id);
      // Reading oneself (every page load does) answers from the caller's state: it is dropped on
      // every change to the user, so it is as fresh as the row.
      if (wanted === caller.email) return toUser(caller.user);
      const row = await store.findUser(caller, wanted);
      if (!row) throw userNotFound();
      return toUser(row);
    },

    /** Admin: their domain's users; SuperAdmin: everyone, or one domain with `?domain=`. */
    async listUsers(caller: UserCaller, query: UserListQuery): Promise<Page<User>> {
      authorize(caller, 'administer', null);
      const tag = userCursorTag(query.sort, query.order);
      const after = cursorsFor(ctx.config).parse(tag, query.cursor, 2);
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
      return cursorsFor(ctx.config).page(tag, page, toUser);
    },

    /**
     * Creates the identity account (no password) and the user, then mails a set-password link in
     * the inviter's language, pointing at `linkBase` (where the inviter works, see lib/origin.ts).
     * An Admin creates in their own domain, up to Admin.
     */
    async createUser(
      caller: UserCaller,
      body: UserCreate,
      meta: AuditMeta,
      hints: LocaleHints,
      linkBase: string,
    ): Promise<UserCreated> {
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
      const invitationSent = await sendInvitation(email, callerLocale(caller, hints), linkBase);
      return { ...toUser(user), invitationSent };
    },

    /** Mails a new set-password link to a user who has not set a password yet. */
    async resendInvitation(
      caller: UserCaller,
      id: string,
      meta: AuditMeta,
      hints: LocaleHints,
      linkBase: string,
    ): Promise<InvitationSent> {
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
      if (!(await sendInvitation(target.email, callerLocale(caller, hints), linkBase))) {
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
    },

    /**
     * The full body; each changed field is checked against the caller's rights and one refused
     * field refuses the whole request, so a denied update changes nothing.
     */
    async updateUser(caller: UserCaller, id: string, body: UserUpdate, meta: AuditMeta): Promise<User> {
      const userId = normalizeId(id);
      const current = await store.findUser(caller, userId);
      if (!current) throw userNotFound();
      if (body._id !== undefined && normalizeId(body._id) !== userId) {
        throw idMismatch();
      }

      const may = (field: UserField) => can(caller, 'changeUser', { target: current, field });

      const patch: UserPatch = {};
      if (normalizeId(body.email) !== current.id) throw forbidden('The email of a user cannot be changed');
      if (!sameCreator(current.creator, body.creator))
        throw forbidden('The creator of a user cannot be changed');

      if (body.displayName !== current.displayName) {
        if (!may('rename')) throw forbidden('You may not change this user’s name');
        patch.displayName = body.displayName;
      }
      if (body.active !== current.active) {
        if (!can(caller, 'manageUser', current))
          throw forbidden('You may not activate or deactivate this user');
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
        await lastSuperAdminGuard(caller, current);
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
    },

    /** Deletes the user and its identity account (every session ends with it). Nobody deletes themself. */
    async deleteUser(caller: UserCaller, id: string, meta: AuditMeta): Promise<void> {
      authorize(caller, 'administer', null);
      const target = await store.findUser(caller, normalizeId(id));
      if (!target) throw userNotFound();
      if (target.id === caller.user.id) throw forbidden('You cannot delete your own account');
      authorize(caller, 'manageUser', target, 'You may not delete this user');
      await lastSuperAdminGuard(caller, target);
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
    },

    /** Signs a user out everywhere (an Admin of their domain, or a SuperAdmin). */
    async revokeUserSessions(caller: UserCaller, id: string, meta: AuditMeta): Promise<SessionsRevoked> {
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
    },
  };
}

/**
 * Holds the department (shared) until the transaction ends, so a concurrent delete cannot leave a
 * user in a department that no longer exists; re-checks it is still active and in the domain.
 */
async function lockDepartment(
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

/** A deactivated user cannot sign in and loses every session; reactivation lets them sign in again. */
async function syncIdentityDisabled(ctx: AppContext, user: UserRow): Promise<void> {
  const account = await ctx.identity.findAccountByEmail(user.email);
  if (!account || account.disabled === !user.active) return;
  await ctx.identity.setDisabled(account.uid, !user.active);
  await ctx.services.callerStates.invalidate({ uid: account.uid, email: user.id });
}

export type AccountsService = ReturnType<typeof accountsService>;
