import type {
  DomainSettings,
  DomainSettingsUpdate,
  EulaAccept,
  EulaStatus,
  Profile,
  ProfileUpdate,
  RevokeAllSessions,
  Session,
  SessionsRevoked,
} from '@assistente/contracts';
import { Locales } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { type Caller, invalidateCallers, type UserRow } from '../../plugins/auth.ts';
import { domainNotFound, userNotFound } from '../accounts/errors.ts';
import { actingDomain, requireAdmin } from '../accounts/policy.ts';
import { type AccountsStore, accountsStore } from '../accounts/store.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';

function toProfile(row: UserRow): Profile {
  return {
    _id: row.id,
    email: row.email,
    displayName: row.displayName,
    locale: Locales.find((l) => l === row.locale) ?? null,
    role: row.role,
    domain: row.domainId,
    department: row.departmentId,
  };
}

/** The caller's own settings (everyone) and their domain's settings (Admin+), DESIGN §7. */
export function settingsService(ctx: AppContext, store: AccountsStore = accountsStore(ctx.db)) {
  const me = async (caller: Caller): Promise<UserRow> => {
    const row = await store.findUser(caller, caller.user.id);
    if (!row) throw userNotFound();
    return row;
  };

  /** The domain whose settings are meant: the caller's own; a SuperAdmin may name another. */
  const settingsDomain = async (caller: Caller, hint: string | undefined) => {
    requireAdmin(caller);
    const domain = await store.findDomain(caller, actingDomain(caller, hint));
    if (!domain) throw domainNotFound();
    return domain;
  };

  return {
    async getProfile(caller: Caller): Promise<Profile> {
      return toProfile(await me(caller));
    },

    async updateProfile(caller: Caller, body: ProfileUpdate): Promise<Profile> {
      const row = await store.updateUser(caller, caller.user.id, {
        ...(body.displayName === undefined ? {} : { displayName: body.displayName }),
        ...(body.locale === undefined ? {} : { locale: body.locale }),
      });
      if (!row) throw userNotFound();
      await invalidateCallers(ctx, { email: row.id });
      return toProfile(row);
    },

    /** Live sessions of the caller's account, browsers and editors alike, most recently used first. */
    async listSessions(caller: Caller): Promise<Session[]> {
      const sessions = await ctx.identity.listSessions(caller.uid);
      return sessions.map((s) => ({
        id: s.id,
        kind: s.kind,
        name: s.name,
        ip: s.ip,
        userAgent: s.userAgent,
        createdAt: s.createdAt.toISOString(),
        lastUsedAt: s.lastUsedAt.toISOString(),
        current: s.id === caller.sessionId,
      }));
    },

    /** Ends one of the caller's own sessions (the current one too: that is signing out). */
    async revokeSession(caller: Caller, id: string): Promise<void> {
      const sessions = await ctx.identity.listSessions(caller.uid);
      if (!sessions.some((s) => s.id === id)) throw notFound('Session not found');
      await ctx.identity.revokeSession(id, 'revoked_from_settings');
    },

    /** Signs the caller out everywhere, or everywhere but this session. */
    async revokeAllSessions(caller: Caller, body: RevokeAllSessions): Promise<SessionsRevoked> {
      const sessions = await ctx.identity.listSessions(caller.uid);
      const ending = sessions.filter((s) => !(body.keepCurrent && s.id === caller.sessionId));
      await ctx.identity.revokeAllSessions(
        caller.uid,
        'signed_out_everywhere',
        body.keepCurrent ? { except: caller.sessionId } : {},
      );
      return { revoked: ending.length };
    },

    async getEula(caller: Caller): Promise<EulaStatus> {
      const [row, domain] = await Promise.all([me(caller), store.findDomain(caller, caller.domain.id)]);
      return { eula: row.eula, currentVersion: domain?.eulaVersion ?? row.eula.version };
    },

    /** Accepts the version the dialog showed; a version bumped meanwhile must be read first (409). */
    async acceptEula(caller: Caller, body: EulaAccept): Promise<EulaStatus> {
      const [row, domain] = await Promise.all([me(caller), store.findDomain(caller, caller.domain.id)]);
      const currentVersion = domain?.eulaVersion ?? row.eula.version;
      if (body.version !== currentVersion) {
        throw new AppError('CONFLICT', 'The terms of use changed meanwhile: read the new version', {
          currentVersion,
        });
      }
      const updated = await store.updateUser(caller, row.id, {
        eula: {
          ...row.eula,
          accept: true,
          timestamp: new Date().toISOString(),
          version: currentVersion,
          pendingRevision: false,
        },
      });
      if (!updated) throw userNotFound();
      await invalidateCallers(ctx, { email: updated.id });
      return { eula: updated.eula, currentVersion };
    },

    async getDomainSettings(caller: Caller, hint: string | undefined): Promise<DomainSettings> {
      const domain = await settingsDomain(caller, hint);
      return { domain: domain.id, eulaVersion: domain.eulaVersion };
    },

    /**
     * A new EULA version asks every user of the domain to accept again (`pendingRevision`), in the
     * same transaction as the change and its audit entry.
     */
    async updateDomainSettings(
      caller: Caller,
      hint: string | undefined,
      body: DomainSettingsUpdate,
      meta: AuditMeta,
    ): Promise<DomainSettings> {
      const domain = await settingsDomain(caller, hint);
      if (body.eulaVersion === domain.eulaVersion)
        return { domain: domain.id, eulaVersion: domain.eulaVersion };
      const now = new Date();
      const updated = await ctx.db.transaction(async (tx) => {
        const s = accountsStore(tx);
        const row = await s.updateDomain(caller, domain.id, { eulaVersion: body.eulaVersion });
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
      await invalidateCallers(ctx, { domain: domain.id });
      return { domain: updated.id, eulaVersion: updated.eulaVersion };
    },
  };
}

export type SettingsService = ReturnType<typeof settingsService>;
