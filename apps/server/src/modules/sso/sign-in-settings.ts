import { ENV_SSO_PROVIDER_ID, type SsoLoginOptions, ssoKindOf } from '@assistente/contracts';
import { envProvider, openSecret, type SsoClientSettings, type SsoState } from './state.ts';

/** The enabled providers, as the login page shows them (anyone may ask). */
export async function loginOptions(s: SsoState): Promise<SsoLoginOptions> {
  const env = envProvider(s);
  const rows = (await s.store.list()).filter((r) => r.enabled);
  return {
    providers: [
      ...(env ? [{ id: env.id, displayName: env.displayName, kind: ssoKindOf(env.issuer) }] : []),
      ...rows.map((r) => ({ id: r.id, displayName: r.displayName, kind: ssoKindOf(r.issuer) })),
    ],
  };
}

/** An enabled provider with its secret, for the sign-in flow; undefined when unknown or off. */
export async function clientSettings(s: SsoState, id: string): Promise<SsoClientSettings | undefined> {
  if (id === ENV_SSO_PROVIDER_ID) return envProvider(s);
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) return undefined;
  const row = await s.store.find(id);
  if (!row?.enabled) return undefined;
  return {
    id: row.id,
    displayName: row.displayName,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecret: openSecret(s, row),
    domains: row.domains,
    autoProvision: row.autoProvision,
    defaultRole: row.defaultRole,
    trusted: false,
    version: `${row.id}:${row.updatedAt.getTime()}`,
  };
}
