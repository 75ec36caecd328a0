import type { Eula, Locale } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { DomainRow, UserCaller, UserRow } from '../../lib/caller.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import { domainNotFound, userNotFound } from './errors.ts';
import { actingDomain } from './policy.ts';
import { type AccountsStore, accountsStore } from './store.ts';

/**
 * The caller's own account and their domain's settings, for the settings module: what it may read
 * and change of accounts' tables, without reaching into the accounts store. Every change drops the
 * cached callers it affects.
 */
export function ownAccountService(ctx: AppContext, store: AccountsStore = accountsStore(ctx.db)) {
  return {
    async user(caller: UserCaller): Promise<UserRow> {
      const row = await store.findUser(caller, caller.user.id);
      if (!row) throw userNotFound();
      return row;
    },

    async updateProfile(
      caller: UserCaller,
      patch: { displayName?: string; locale?: Locale | null },
    ): Promise<UserRow> {
      const row = await store.updateUser(caller, caller.user.id, patch);
      if (!row) throw userNotFound();
      await ctx.services.callerStates.invalidate({ email: row.id });
      return row;
    },

    async recordEula(caller: UserCaller, eula: Eula): Promise<UserRow> {
      const row = await store.updateUser(caller, caller.user.id, { eula });
      if (!row) throw userNotFound();
      await ctx.services.callerStates.invalidate({ email: row.id });
      return row;
    },

    /** The EULA version the caller's domain asks for (undefined when the domain is gone). */
    async domainEulaVersion(caller: UserCaller): Promise<string | undefined> {
      return (await store.findDomain(caller, caller.domain.id))?.eulaVersion;
    },

    /**
     * The domain whose settings an Admin means: their own; a SuperAdmin may name another. Who may
     * manage settings at all is the settings policy's to say, before this.
     */
    async settingsDomain(caller: UserCaller, hint: string | undefined): Promise<DomainRow> {
      const domain = await store.findDomain(caller, actingDomain(caller, hint));
      if (!domain) throw domainNotFound();
      return domain;
    },

    /**
     * The zone a domain counts its days in (budget periods, usage reports): periods already
     * running keep the days they started with; the next ones follow the new zone.
     */
    async setTimeZone(
      caller: UserCaller,
      domain: DomainRow,
      timeZone: string,
      meta: AuditMeta,
    ): Promise<DomainRow> {
      const updated = await ctx.db.transaction(async (tx) => {
        const row = await accountsStore(tx).updateDomain(caller, domain.id, { timeZone });
        if (!row) return undefined;
        await recordAudit(tx, caller, meta, {
          action: 'domain.settings.update',
          targetType: 'domain',
          targetId: domain.id,
          domainId: domain.id,
          before: { timeZone: domain.timeZone },
          after: { timeZone: row.timeZone },
        });
        return row;
      });
      if (!updated) throw domainNotFound();
      return updated;
    },

    /**
     * A new EULA version asks every user of the domain to accept again (`pendingRevision`), in the
     * same transaction as the change and its audit entry.
     */
    async setEulaVersion(
      caller: UserCaller,
      domain: DomainRow,
      eulaVersion: string,
      meta: AuditMeta,
    ): Promise<DomainRow> {
      const now = new Date();
      const updated = await ctx.db.transaction(async (tx) => {
        const s = accountsStore(tx);
        const row = await s.updateDomain(caller, domain.id, { eulaVersion });
        if (!row) return undefined;
        const users = await s.markEulaPending(caller, domain.id, now);
        await recordAudit(tx, caller, meta, {
          action: 'domain.settings.update',
          targetType: 'domain',
          targetId: domain.id,
          domainId: domain.id,
          before: { eulaVersion: domain.eulaVersion },
          after: { eulaVersion: row.eulaVersion, usersAskedToAccept: users },
        });
        return row;
      });
      if (!updated) throw domainNotFound();
      await ctx.services.callerStates.invalidate({ domain: domain.id });
      return updated;
    },
  };
}

export type OwnAccountService = ReturnType<typeof ownAccountService>;
