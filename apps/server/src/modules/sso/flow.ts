import { createHash } from 'node:crypto';
import type { Locale, SsoErrorCode } from '@assistente/contracts';
import * as oidc from 'openid-client';
import type { AppContext } from '../../context.ts';
import { createSecretBox, loadSecretKey } from '../../lib/secrets.ts';
import { createGuardedHttp } from '../../lib/ssrf.ts';
import { parseEmail, provisionUser } from '../accounts/provision.ts';
import type { SsoClientSettings, SsoService } from './service.ts';
import { ssoStore } from './store.ts';

/** A sign-in not finished within this time starts over (the state cookie's life). */
const FLOW_TTL_MS = 10 * 60_000;
/** Discovery and keys are asked again after this long, or at once when the provider's settings change. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const COOKIE_PREFIX = 'assistente_sso_';
const COOKIE_PATH = '/identity/sso/';

/** A sign-in failure the login page translates; nothing was created. */
export class SsoFlowError extends Error {
  constructor(
    readonly code: SsoErrorCode,
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'SsoFlowError';
  }
}

/** What the browser carries between start and callback, sealed: nobody can read or change it. */
interface FlowState {
  p: string;
  s: string;
  n: string;
  v: string;
  r: string;
  l?: Locale;
  exp: number;
}

export interface Started {
  location: string;
  cookie: string;
}

export interface Finished {
  /** The login page, with the one-time code in the fragment (never sent to a server or a Referer). */
  location: string;
  clearCookie: string;
}

export interface ClientMeta {
  ip: string;
  userAgent?: string;
}

/** `redirect` when it is a path of this app (`/chats?x`), never another origin (`//evil`, `/\evil`). */
export function localPath(redirect: string | undefined): string | undefined {
  if (redirect === undefined || redirect === '') return '/';
  if (!redirect.startsWith('/') || redirect.startsWith('//') || redirect.includes('\\')) return undefined;
  // A path with control characters is never one the app made (and URL parsing would drop them).
  if ([...redirect].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return undefined;
  try {
    const url = new URL(redirect, 'http://app.invalid');
    if (url.origin !== 'http://app.invalid') return undefined;
    const path = `${url.pathname}${url.search}${url.hash}`;
    // Dot segments collapse on parsing: `/..//evil.test` comes out as `//evil.test`, which a
    // browser reads as another host. The path the app sends must pass the check it passed.
    return path.startsWith('//') || path.includes('\\') ? undefined : path;
  } catch {
    return undefined;
  }
}

const cookieName = (state: string) =>
  `${COOKIE_PREFIX}${createHash('sha256').update(state).digest('base64url').slice(0, 16)}`;

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The OpenID Connect authorization code flow (docs/ARCHITECTURE.md#single-sign-on) through `openid-client`: discovery and
 * keys from the issuer, PKCE S256, `state` and `nonce` in a sealed short-lived cookie bound to the
 * browser, the id token verified against the issuer's JWKS (issuer, audience, expiry, nonce), then
 * the address rules of the provider, and an identity-service handoff code for the login page.
 */
export function createSsoFlow(ctx: AppContext, providers: SsoService) {
  const { config } = ctx;
  const box = createSecretBox(loadSecretKey(config), 'sso-flow');
  const guard = createGuardedHttp({ allowlist: config.PROVIDER_URL_ALLOWLIST });
  /** openid-client's requests through the SSRF guard (redirects followed there, each one checked). */
  const guardedFetch: oidc.CustomFetch = (url, options) =>
    guard.fetch(url, {
      method: options.method,
      headers: options.headers,
      // openid-client sends form strings and JSON here; its type also admits bytes, which fetch takes too.
      body: options.body as RequestInit['body'],
      redirect: options.redirect,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const secure = config.publicUrl.startsWith('https://');
  const discovered = new Map<string, { at: number; config: oidc.Configuration }>();

  async function clientConfig(p: SsoClientSettings): Promise<oidc.Configuration> {
    const hit = discovered.get(p.version);
    if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
    const issuer = new URL(p.issuer);
    const options: oidc.DiscoveryRequestOptions = {
      timeout: 10,
      // An issuer a SuperAdmin typed is fetched under the SSRF rule, redirects included.
      ...(p.trusted ? {} : { [oidc.customFetch]: guardedFetch }),
      // Plain http only reaches hosts the operator trusts: their env, or the allow-list (service.ts).
      ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    };
    let made: oidc.Configuration;
    try {
      made = await oidc.discovery(issuer, p.clientId, p.clientSecret ?? undefined, undefined, options);
    } catch (err) {
      ctx.log.warn({ err, provider: p.id }, 'sso: discovery failed');
      throw new SsoFlowError('SSO_PROVIDER_ERROR', 'discovery failed');
    }
    // Verify id token signatures against the issuer's JWKS, not only TLS to its token endpoint.
    oidc.enableNonRepudiationChecks(made);
    if (discovered.size > 1000) discovered.clear();
    discovered.set(p.version, { at: Date.now(), config: made });
    return made;
  }

  async function provider(id: string): Promise<SsoClientSettings> {
    const p = await providers.clientSettings(id);
    if (!p) throw new SsoFlowError('SSO_PROVIDER_NOT_FOUND');
    return p;
  }

  function loginPage(flow: { r: string; l?: Locale | undefined }, extra: Record<string, string>, hash = '') {
    const base = flow.l ? `/${flow.l}/auth/login` : '/auth/login';
    const query = new URLSearchParams({ ...(flow.r !== '/' ? { redirect: flow.r } : {}), ...extra });
    const q = query.toString();
    return `${config.publicUrl}${base}${q ? `?${q}` : ''}${hash}`;
  }

  const clearCookie = (name: string) =>
    `${name}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  /** Who the verified address is here: an existing user, or one created when the provider allows. */
  async function accountFor(
    p: SsoClientSettings,
    claims: { email: string; name?: string | undefined },
  ): Promise<{ uid: string; isNewUser: boolean }> {
    const { email, domain } = parseEmail(claims.email);
    if (!p.domains.includes(domain)) throw new SsoFlowError('SSO_DOMAIN_NOT_ALLOWED', domain);
    const state = await ssoStore(ctx.db).userByEmail(email);
    if (state) {
      if (!state.active || !state.domainActive) throw new SsoFlowError('SSO_USER_DISABLED');
      let account = await ctx.identity.findAccountByEmail(email);
      // A user made before identity accounts existed for them (or imported) gets one, without password.
      account ??= await ctx.identity.createAccount({
        email,
        displayName: state.displayName,
        emailVerified: true,
      });
      if (account.disabled) throw new SsoFlowError('SSO_USER_DISABLED');
      return { uid: account.uid, isNewUser: false };
    }
    if (!p.autoProvision) throw new SsoFlowError('SSO_NOT_PROVISIONED');
    const made = await provisionUser(ctx, {
      email,
      displayName: claims.name?.trim().slice(0, 120) || undefined,
      role: p.defaultRole === 'SuperAdmin' ? 'Viewer' : p.defaultRole,
      eulaAccepted: false,
      creator: { name: p.displayName, email: '' },
    });
    return { uid: made.uid, isNewUser: true };
  }

  return {
    /** GET /identity/sso/{id}/start: where to send the browser, and the cookie that binds it. */
    async start(id: string, redirect: string, locale: Locale | undefined): Promise<Started> {
      const p = await provider(id);
      const c = await clientConfig(p);
      const flow: FlowState = {
        p: p.id,
        s: oidc.randomState(),
        n: oidc.randomNonce(),
        v: oidc.randomPKCECodeVerifier(),
        r: redirect,
        ...(locale ? { l: locale } : {}),
        exp: Date.now() + FLOW_TTL_MS,
      };
      const url = oidc.buildAuthorizationUrl(c, {
        redirect_uri: providers.redirectUri(p.id),
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.v),
        code_challenge_method: 'S256',
        state: flow.s,
        nonce: flow.n,
      });
      const sealed = box.seal(JSON.stringify(flow), `sso:${p.id}`);
      const cookie = `${cookieName(flow.s)}=${sealed}; Path=${COOKIE_PATH}; Max-Age=${FLOW_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
      return { location: url.href, cookie };
    },

    /** Where a failed start sends the browser: the login page saying why. */
    failurePage(code: SsoErrorCode, redirect: string, locale: Locale | undefined): string {
      return loginPage({ r: redirect, l: locale }, { ssoError: code });
    },

    /**
     * GET /identity/sso/{id}/callback. Always answers with a page to go to: the login page with the
     * one-time code, or with the reason it failed.
     */
    async callback(
      id: string,
      query: Record<string, string>,
      cookieHeader: string | undefined,
      client: ClientMeta,
    ): Promise<Finished> {
      const state = query.state ?? '';
      const name = cookieName(state);
      const raw = state ? readCookie(cookieHeader, name) : undefined;
      let flow: FlowState | undefined;
      try {
        flow = raw ? (JSON.parse(box.open(raw, `sso:${id}`)) as FlowState) : undefined;
      } catch {
        flow = undefined;
      }
      const clear = clearCookie(name);
      if (!flow || flow.p !== id || flow.s !== state || flow.exp < Date.now()) {
        return { location: loginPage({ r: '/' }, { ssoError: 'SSO_STATE_INVALID' }), clearCookie: clear };
      }
      const fail = (code: SsoErrorCode) => ({
        location: loginPage(flow, { ssoError: code }),
        clearCookie: clear,
      });
      try {
        if (query.error) throw new SsoFlowError('SSO_DENIED', query.error);
        const p = await provider(id);
        const c = await clientConfig(p);
        const current = new URL(providers.redirectUri(id));
        for (const [k, v] of Object.entries(query)) current.searchParams.set(k, v);
        let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
        try {
          tokens = await oidc.authorizationCodeGrant(c, current, {
            pkceCodeVerifier: flow.v,
            expectedState: flow.s,
            expectedNonce: flow.n,
            idTokenExpected: true,
          });
        } catch (err) {
          throw classify(err);
        }
        const claims = tokens.claims();
        if (!claims || typeof claims.email !== 'string') {
          throw new SsoFlowError('SSO_PROVIDER_ERROR', 'the id token has no email');
        }
        if (claims.email_verified !== true) throw new SsoFlowError('SSO_EMAIL_NOT_VERIFIED');
        const who = await accountFor(p, {
          email: claims.email,
          name: typeof claims.name === 'string' ? claims.name : undefined,
        });
        const code = await ctx.identity.createIdpHandoff({
          uid: who.uid,
          providerId: p.id,
          subject: claims.sub,
          isNewUser: who.isNewUser,
          ip: client.ip,
          ...(client.userAgent ? { userAgent: client.userAgent } : {}),
        });
        const hash = `#${new URLSearchParams({ ssoCode: code, providerId: p.id }).toString()}`;
        return { location: loginPage(flow, {}, hash), clearCookie: clear };
      } catch (err) {
        if (err instanceof SsoFlowError) {
          ctx.log.info({ provider: id, reason: err.message }, 'sso: sign-in refused');
          return fail(err.code);
        }
        ctx.log.error({ err, provider: id }, 'sso: sign-in failed');
        return fail('SSO_PROVIDER_ERROR');
      }
    },

    async close(): Promise<void> {
      await guard.close();
    },
  };
}

/** openid-client's refusals, as the login page words them. */
function classify(err: unknown): SsoFlowError {
  if (err instanceof oidc.AuthorizationResponseError) return new SsoFlowError('SSO_DENIED', err.error);
  // A nonce or state that is not this browser's: somebody else's round trip (or a replay).
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const claim = (e as { claim?: unknown }).claim;
    if (claim === 'nonce' || claim === 'state')
      return new SsoFlowError('SSO_STATE_INVALID', `${claim} mismatch`);
    e = (e as { cause?: unknown }).cause;
  }
  const message = err instanceof Error ? err.message : 'token exchange failed';
  return new SsoFlowError('SSO_PROVIDER_ERROR', message);
}

export type SsoFlow = ReturnType<typeof createSsoFlow>;
