import { ENV_SSO_PROVIDER_ID, type Role, ssoCallbackPath, ssoKindOf } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { authorize } from './policy.ts';
import { type SsoProviderRow, type SsoStore, ssoStore } from './store.ts';

/** What every single sign-on operation shares (docs/ARCHITECTURE.md#service-style). */
export interface SsoState {
  readonly ctx: AppContext;
  readonly store: SsoStore;
  /** Seals client secrets, bound to their provider's id. */
  readonly box: SecretBox;
}

export function createSsoState(ctx: AppContext, store?: SsoStore): SsoState {
  return { ctx, store: store ?? ssoStore(ctx.db), box: secretBoxFor(ctx.config) };
}

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

/** Where a provider sends the browser back: registered at the provider by its Admin. */
export const redirectUri = (s: SsoState, id: string) => `${s.ctx.config.publicUrl}${ssoCallbackPath(id)}`;

/** The instance-wide provider from the environment, when OIDC_ISSUER and OIDC_CLIENT_ID are set. */
export function envProvider(s: SsoState): SsoClientSettings | undefined {
  const { config } = s.ctx;
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

export function openSecret(s: SsoState, row: SsoProviderRow): string | null {
  if (!row.clientSecretEnc) return null;
  try {
    return s.box.open(row.clientSecretEnc, row.id);
  } catch (err) {
    // A changed SECRET_KEY: the provider then refuses the client like a wrong secret would.
    s.ctx.log.error(
      { err, provider: row.id },
      'cannot decrypt an SSO client secret (was SECRET_KEY changed?)',
    );
    return null;
  }
}

export function manage(caller: UserCaller): void {
  authorize(caller, 'manage', null, 'Only SuperAdmins manage single sign-on');
}
