import type { SsoProvider } from '@assistente/contracts';
import { ssoKindOf } from '@assistente/contracts';
import { redirectUri, type SsoClientSettings, type SsoState } from './state.ts';
import type { SsoProviderRow } from './store.ts';

/** What the audit log keeps of a provider: never the secret, only whether there is one (as `keySet`: the log drops fields named like secrets). */
export const audited = (row: SsoProviderRow) => ({
  displayName: row.displayName,
  issuer: row.issuer,
  clientId: row.clientId,
  domains: row.domains,
  autoProvision: row.autoProvision,
  defaultRole: row.defaultRole,
  enabled: row.enabled,
  keySet: Boolean(row.clientSecretEnc),
});

/** What a configured provider and the instance's own show alike: the settings a sign-in uses. */
function settingsDto(s: SsoState, p: SsoProviderRow | SsoClientSettings) {
  const { id, displayName, issuer, clientId, domains, autoProvision } = p;
  return {
    id,
    displayName,
    kind: ssoKindOf(issuer),
    issuer,
    clientId,
    domains,
    autoProvision,
    defaultRole: p.defaultRole === 'SuperAdmin' ? ('Admin' as const) : p.defaultRole,
    redirectUri: redirectUri(s, id),
  };
}

export function toDto(s: SsoState, row: SsoProviderRow): SsoProvider {
  return {
    ...settingsDto(s, row),
    hasClientSecret: Boolean(row.clientSecretEnc),
    enabled: row.enabled,
    source: 'configured',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function envDto(s: SsoState, env: SsoClientSettings): SsoProvider {
  return {
    ...settingsDto(s, env),
    hasClientSecret: Boolean(env.clientSecret),
    enabled: true,
    source: 'instance',
    createdAt: null,
    updatedAt: null,
  };
}
