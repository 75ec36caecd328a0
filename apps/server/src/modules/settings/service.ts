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
import type { UserCaller, UserRow } from '../../lib/caller.ts';
import { notFound } from '../../lib/errors.ts';
import { type OwnAccountService, ownAccountService } from '../accounts/index.ts';
import type { AuditMeta } from '../audit/index.ts';
import { eulaChanged } from './errors.ts';
import { authorize } from './policy.ts';

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

/** The caller's own settings (everyone) and their domain's settings (Admin+), docs/ARCHITECTURE.md#organisations-domains-departments-premium. */
export function settingsService(ctx: AppContext, account: OwnAccountService = ownAccountService(ctx)) {
  return {
    async getProfile(caller: UserCaller): Promise<Profile> {
      return toProfile(await account.user(caller));
    },

    async updateProfile(caller: UserCaller, body: ProfileUpdate): Promise<Profile> {
      const row = await account.updateProfile(caller, {
        ...(body.displayName === undefined ? {} : { displayName: body.displayName }),
        ...(body.locale === undefined ? {} : { locale: body.locale }),
      });
      return toProfile(row);
    },

    /** Live sessions of the caller's account, browsers and editors alike, most recently used first. */
    async listSessions(caller: UserCaller): Promise<Session[]> {
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
    async revokeSession(caller: UserCaller, id: string): Promise<void> {
      const sessions = await ctx.identity.listSessions(caller.uid);
      if (!sessions.some((s) => s.id === id)) throw notFound('Session not found');
      await ctx.identity.revokeSession(id, 'revoked_from_settings');
    },

    /** Signs the caller out everywhere, or everywhere but this session. */
    async revokeAllSessions(caller: UserCaller, body: RevokeAllSessions): Promise<SessionsRevoked> {
      const sessions = await ctx.identity.listSessions(caller.uid);
      const ending = sessions.filter((s) => !(body.keepCurrent && s.id === caller.sessionId));
      await ctx.identity.revokeAllSessions(
        caller.uid,
        'signed_out_everywhere',
        body.keepCurrent ? { except: caller.sessionId } : {},
      );
      return { revoked: ending.length };
    },

    async getEula(caller: UserCaller): Promise<EulaStatus> {
      const [row, version] = await Promise.all([account.user(caller), account.domainEulaVersion(caller)]);
      return { eula: row.eula, currentVersion: version ?? row.eula.version };
    },

    /** Accepts the version the dialog showed; a version bumped meanwhile must be read first (409). */
    async acceptEula(caller: UserCaller, body: EulaAccept): Promise<EulaStatus> {
      const [row, version] = await Promise.all([account.user(caller), account.domainEulaVersion(caller)]);
      const currentVersion = version ?? row.eula.version;
      if (body.version !== currentVersion) {
        throw eulaChanged(currentVersion);
      }
      const updated = await account.recordEula(caller, {
        ...row.eula,
        accept: true,
        timestamp: new Date().toISOString(),
        version: currentVersion,
        pendingRevision: false,
      });
      return { eula: updated.eula, currentVersion };
    },

    async getDomainSettings(caller: UserCaller, hint: string | undefined): Promise<DomainSettings> {
      authorize(caller, 'manageDomain', caller.domain.id);
      const domain = await account.settingsDomain(caller, hint);
      return { domain: domain.id, eulaVersion: domain.eulaVersion };
    },

    /** A new EULA version asks every user of the domain to accept it again. */
    async updateDomainSettings(
      caller: UserCaller,
      hint: string | undefined,
      body: DomainSettingsUpdate,
      meta: AuditMeta,
    ): Promise<DomainSettings> {
      authorize(caller, 'manageDomain', caller.domain.id);
      const domain = await account.settingsDomain(caller, hint);
      if (body.eulaVersion === domain.eulaVersion)
        return { domain: domain.id, eulaVersion: domain.eulaVersion };
      const updated = await account.setEulaVersion(caller, domain, body.eulaVersion, meta);
      return { domain: updated.id, eulaVersion: updated.eulaVersion };
    },
  };
}

export type SettingsService = ReturnType<typeof settingsService>;
