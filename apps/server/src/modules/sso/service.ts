import {
  ENV_SSO_PROVIDER_ID,
  newSsoProviderId,
  type Role,
  type SsoLoginOptions,
  type SsoProvider,
  type SsoProviderCreateSchema,
  type SsoProviderUpdateSchema,
  ssoCallbackPath,
  ssoKindOf,
} from '@assistente/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import {
  assertFieldUrlAllowed,
  assertReachable,
  BlockedUrlError,
  blockedField,
  matchesAllowlist,
} from '../../lib/ssrf.ts';
import { type AuditMeta, changedFields, recordAudit } from '../audit/index.ts';
import { ssoProviderExists, ssoProviderNotFound } from './errors.ts';
import { authorize } from './policy.ts';
import { type SsoProviderPatch, type SsoProviderRow, type SsoStore, ssoStore } from './store.ts';

type Create = z.output<typeof SsoProviderCreateSchema>;
type Update = z.output<typeof SsoProviderUpdateSchema>;

/** A provider ready for the sign-in flow: the secret opened, and whether its URLs are trusted. */
export interface SsoClientSettings {
  id: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  domains: string[];
  autoProvision: boolean;
  defaultRole: Role;
  /** Set by the operator's environment: reached without the SSRF rule. */
  trusted: boolean;
  /** Changes whenever the settings do, so cached discovery is dropped with them. */
  version: string;
}

/** How long saving an issuer waits for it to answer: an Admin is waiting on the form. */
const ISSUER_PROBE_TIMEOUT_MS = 5_000;

/** What the audit log keeps of a provider: never the secret, only whether there is one (as `keySet`: the log drops fields named like secrets). */
const audited = (row: SsoProviderRow) => ({
  displayName: row.displayName,
  issuer: row.issuer,
  clientId: row.clientId,
  domains: row.domains,
  autoProvision: row.autoProvision,
  defaultRole: row.defaultRole,
  enabled: row.enabled,
  keySet: Boolean(row.clientSecretEnc),
});

/** Single sign-on providers: configured by SuperAdmins (API, /integration) or by OIDC_* env. */
export function ssoService(
  ctx: AppContext,
  store: SsoStore = ssoStore(ctx.db),
  box: SecretBox = secretBoxFor(ctx.config),
) {
  const { config } = ctx;

  const redirectUri = (id: string) => `${config.publicUrl}${ssoCallbackPath(id)}`;

  /** The instance-wide provider from the environment, when OIDC_ISSUER and OIDC_CLIENT_ID are set. */
  function envProvider(): SsoClientSettings | undefined {
    if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID) return undefined;
    const issuer = config.OIDC_ISSUER.replace(/\/+$/, '');
    return {
      id: ENV_SSO_PROVIDER_ID,
      displayName: config.OIDC_DISPLAY_NAME ?? (ssoKindOf(issuer) === 'google' ? 'Google' : 'SSO'),
      issuer,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET ?? null,
      domains: config.OIDC_DOMAINS,
      autoProvision: config.OIDC_AUTO_PROVISION,
      defaultRole: config.OIDC_DEFAULT_ROLE,
      trusted: true,
      version: 'env',
    };
  }

  function toDto(row: SsoProviderRow): SsoProvider {
    return {
      id: row.id,
      displayName: row.displayName,
      kind: ssoKindOf(row.issuer),
      issuer: row.issuer,
      clientId: row.clientId,
      hasClientSecret: Boolean(row.clientSecretEnc),
      domains: row.domains,
      autoProvision: row.autoProvision,
      defaultRole: row.defaultRole === 'SuperAdmin' ? 'Admin' : row.defaultRole,
      enabled: row.enabled,
      source: 'configured',
      redirectUri: redirectUri(row.id),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  function envDto(env: SsoClientSettings): SsoProvider {
    return {
      id: env.id,
      displayName: env.displayName,
      kind: ssoKindOf(env.issuer),
      issuer: env.issuer,
      clientId: env.clientId,
      hasClientSecret: Boolean(env.clientSecret),
      domains: env.domains,
      autoProvision: env.autoProvision,
      defaultRole: env.defaultRole === 'SuperAdmin' ? 'Admin' : env.defaultRole,
      enabled: true,
      source: 'instance',
      redirectUri: redirectUri(env.id),
      createdAt: null,
      updatedAt: null,
    };
  }

  /**
   * An issuer a SuperAdmin typed is reached from the server, so it follows the providers' SSRF rule
   * (docs/ARCHITECTURE.md#model-providers); plain http only where the operator allowed the host, since tokens travel on it.
   */
  async function checkIssuer(issuer: string): Promise<void> {
    const url = new URL(issuer);
    if (url.protocol !== 'https:' && !matchesAllowlist(url, config.PROVIDER_URL_ALLOWLIST)) {
      throw blockedField(
        'issuer',
        new BlockedUrlError(issuer, 'https_required', 'The issuer must use https', { host: url.hostname }),
      );
    }
    await assertFieldUrlAllowed('issuer', issuer, config.PROVIDER_URL_ALLOWLIST);
    // A provider nobody can reach would only fail at sign-in: say now what is wrong with it.
    try {
      await assertReachable(
        `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
        { allowlist: config.PROVIDER_URL_ALLOWLIST },
        ISSUER_PROBE_TIMEOUT_MS,
      );
    } catch (err) {
      if (err instanceof BlockedUrlError) throw blockedField('issuer', err);
      throw err;
    }
  }

  function openSecret(row: SsoProviderRow): string | null {
    if (!row.clientSecretEnc) return null;
    try {
      return box.open(row.clientSecretEnc, row.id);
    } catch (err) {
      // A changed SECRET_KEY: the provider then refuses the client like a wrong secret would.
      ctx.log.error(
        { err, provider: row.id },
        'cannot decrypt an SSO client secret (was SECRET_KEY changed?)',
      );
      return null;
    }
  }

  function manage(caller: UserCaller): void {
    authorize(caller, 'manage', null, 'Only SuperAdmins manage single sign-on');
  }

  return {
    redirectUri,

    async list(caller: UserCaller): Promise<SsoProvider[]> {
      manage(caller);
      const env = envProvider();
      const rows = await store.list();
      return [...(env ? [envDto(env)] : []), ...rows.map(toDto)];
    },

    async create(caller: UserCaller, body: Create, meta: AuditMeta): Promise<SsoProvider> {
      manage(caller);
      const id = body.id ?? newSsoProviderId();
      // An id the client chose is its redirect URI, maybe already registered: never a second provider's.
      if (await store.find(id)) throw ssoProviderExists();
      await checkIssuer(body.issuer);
      const secret = body.clientSecret?.trim();
      const row = await ctx.db.transaction(async (tx) => {
        const made = await ssoStore(tx).insert({
          id,
          displayName: body.displayName,
          issuer: body.issuer,
          clientId: body.clientId,
          clientSecretEnc: secret ? box.seal(secret, id) : null,
          domains: body.domains,
          autoProvision: body.autoProvision,
          defaultRole: body.defaultRole,
          enabled: body.enabled,
        });
        await recordAudit(tx, caller, meta, {
          action: 'sso.create',
          targetType: 'ssoProvider',
          targetId: id,
          domainId: null,
          after: audited(made),
        });
        return made;
      });
      return toDto(row);
    },

    async update(caller: UserCaller, id: string, body: Update, meta: AuditMeta): Promise<SsoProvider> {
      manage(caller);
      if (id === ENV_SSO_PROVIDER_ID) {
        throw invalidField('id', 'This provider comes from the server’s OIDC_* environment; change it there');
      }
      const current = await store.find(id);
      if (!current) throw ssoProviderNotFound();
      if (body.issuer !== undefined && body.issuer !== current.issuer) await checkIssuer(body.issuer);
      const patch: SsoProviderPatch = {};
      if (body.displayName !== undefined) patch.displayName = body.displayName;
      if (body.issuer !== undefined) patch.issuer = body.issuer;
      if (body.clientId !== undefined) patch.clientId = body.clientId;
      if (body.domains !== undefined) patch.domains = body.domains;
      if (body.autoProvision !== undefined) patch.autoProvision = body.autoProvision;
      if (body.defaultRole !== undefined) patch.defaultRole = body.defaultRole;
      if (body.enabled !== undefined) patch.enabled = body.enabled;
      // Empty keeps the stored secret (the form never shows it); null removes it.
      if (body.clientSecret === null) patch.clientSecretEnc = null;
      else if (body.clientSecret?.trim()) patch.clientSecretEnc = box.seal(body.clientSecret.trim(), id);
      const row = await ctx.db.transaction(async (tx) => {
        const updated = await ssoStore(tx).update(id, patch);
        if (!updated) throw ssoProviderNotFound();
        const diff = changedFields(audited(current), audited(updated));
        if (patch.clientSecretEnc) diff.after.keyReplaced = true;
        await recordAudit(tx, caller, meta, {
          action: 'sso.update',
          targetType: 'ssoProvider',
          targetId: id,
          domainId: null,
          before: { displayName: current.displayName, ...diff.before },
          after: { displayName: updated.displayName, ...diff.after },
        });
        return updated;
      });
      return toDto(row);
    },

    async remove(caller: UserCaller, id: string, meta: AuditMeta): Promise<void> {
      manage(caller);
      if (id === ENV_SSO_PROVIDER_ID) {
        throw invalidField('id', 'This provider comes from the server’s OIDC_* environment; remove it there');
      }
      await ctx.db.transaction(async (tx) => {
        const gone = await ssoStore(tx).remove(id);
        if (!gone) throw ssoProviderNotFound();
        await recordAudit(tx, caller, meta, {
          action: 'sso.delete',
          targetType: 'ssoProvider',
          targetId: id,
          domainId: null,
          before: audited(gone),
        });
      });
    },

    /** The enabled providers, as the login page shows them (anyone may ask). */
    async loginOptions(): Promise<SsoLoginOptions> {
      const env = envProvider();
      const rows = (await store.list()).filter((r) => r.enabled);
      return {
        providers: [
          ...(env ? [{ id: env.id, displayName: env.displayName, kind: ssoKindOf(env.issuer) }] : []),
          ...rows.map((r) => ({ id: r.id, displayName: r.displayName, kind: ssoKindOf(r.issuer) })),
        ],
      };
    },

    /** An enabled provider with its secret, for the sign-in flow; undefined when unknown or off. */
    async clientSettings(id: string): Promise<SsoClientSettings | undefined> {
      if (id === ENV_SSO_PROVIDER_ID) return envProvider();
      if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) return undefined;
      const row = await store.find(id);
      if (!row?.enabled) return undefined;
      return {
        id: row.id,
        displayName: row.displayName,
        issuer: row.issuer,
        clientId: row.clientId,
        clientSecret: openSecret(row),
        domains: row.domains,
        autoProvision: row.autoProvision,
        defaultRole: row.defaultRole,
        trusted: false,
        version: `${row.id}:${row.updatedAt.getTime()}`,
      };
    },
  };
}

export type SsoService = ReturnType<typeof ssoService>;
