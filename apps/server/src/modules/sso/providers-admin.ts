import {
  ENV_SSO_PROVIDER_ID,
  newSsoProviderId,
  type SsoProvider,
  type SsoProviderCreateSchema,
  type SsoProviderUpdateSchema,
} from '@assistente/contracts';
import type { z } from 'zod';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import {
  assertFieldUrlAllowed,
  assertReachable,
  BlockedUrlError,
  blockedField,
  matchesAllowlist,
} from '../../lib/ssrf.ts';
import { type AuditMeta, changedFields, recordAudit } from '../audit/index.ts';
import { audited, envDto, toDto } from './dto.ts';
import { ssoProviderExists, ssoProviderNotFound } from './errors.ts';
import { envProvider, manage, type SsoState } from './state.ts';
import { type SsoProviderPatch, ssoStore } from './store.ts';

/** A SuperAdmin's providers (docs/ARCHITECTURE.md#single-sign-on): list, create, change, remove; each audited. */

type Create = z.output<typeof SsoProviderCreateSchema>;
type Update = z.output<typeof SsoProviderUpdateSchema>;

/** How long saving an issuer waits for it to answer: an Admin is waiting on the form. */
const ISSUER_PROBE_TIMEOUT_MS = 5_000;

/**
 * An issuer a SuperAdmin typed is reached from the server, so it follows the providers' SSRF rule
 * (docs/ARCHITECTURE.md#model-providers); plain http only where the operator allowed the host, since tokens travel on it.
 */
async function checkIssuer(s: SsoState, issuer: string): Promise<void> {
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !matchesAllowlist(url, s.ctx.config.PROVIDER_URL_ALLOWLIST)) {
    throw blockedField(
      'issuer',
      new BlockedUrlError(issuer, 'https_required', 'The issuer must use https', { host: url.hostname }),
    );
  }
  await assertFieldUrlAllowed('issuer', issuer, s.ctx.config.PROVIDER_URL_ALLOWLIST);
  // A provider nobody can reach would only fail at sign-in: say now what is wrong with it.
  try {
    await assertReachable(
      `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      { allowlist: s.ctx.config.PROVIDER_URL_ALLOWLIST },
      ISSUER_PROBE_TIMEOUT_MS,
    );
  } catch (err) {
    if (err instanceof BlockedUrlError) throw blockedField('issuer', err);
    throw err;
  }
}

export async function list(s: SsoState, caller: UserCaller): Promise<SsoProvider[]> {
  manage(caller);
  const env = envProvider(s);
  const rows = await s.store.list();
  return [...(env ? [envDto(s, env)] : []), ...rows.map((r) => toDto(s, r))];
}

export async function create(
  s: SsoState,
  caller: UserCaller,
  body: Create,
  meta: AuditMeta,
): Promise<SsoProvider> {
  manage(caller);
  const id = body.id ?? newSsoProviderId();
  // An id the client chose is its redirect URI, maybe already registered: never a second provider's.
  if (await s.store.find(id)) throw ssoProviderExists();
  await checkIssuer(s, body.issuer);
  const secret = body.clientSecret?.trim();
  const row = await s.ctx.db.transaction(async (tx) => {
    const made = await ssoStore(tx).insert({
      id,
      displayName: body.displayName,
      issuer: body.issuer,
      clientId: body.clientId,
      clientSecretEnc: secret ? s.box.seal(secret, id) : null,
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
  return toDto(s, row);
}

export async function update(
  s: SsoState,
  caller: UserCaller,
  id: string,
  body: Update,
  meta: AuditMeta,
): Promise<SsoProvider> {
  manage(caller);
  if (id === ENV_SSO_PROVIDER_ID) {
    throw invalidField('id', 'This provider comes from the server’s OIDC_* environment; change it there');
  }
  const current = await s.store.find(id);
  if (!current) throw ssoProviderNotFound();
  if (body.issuer !== undefined && body.issuer !== current.issuer) await checkIssuer(s, body.issuer);
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
  else if (body.clientSecret?.trim()) patch.clientSecretEnc = s.box.seal(body.clientSecret.trim(), id);
  const row = await s.ctx.db.transaction(async (tx) => {
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
  return toDto(s, row);
}

export async function remove(s: SsoState, caller: UserCaller, id: string, meta: AuditMeta): Promise<void> {
  manage(caller);
  if (id === ENV_SSO_PROVIDER_ID) {
    throw invalidField('id', 'This provider comes from the server’s OIDC_* environment; remove it there');
  }
  await s.ctx.db.transaction(async (tx) => {
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
}
