import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type CodeTokenRequest,
  type CodeTokenResponse,
  Locales,
  type LoginSubmitRequest,
  type LoginSubmitResponse,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { resolveCaller } from '../../plugins/auth.ts';
import { invalidGrant, redirectNotLoginPage } from './errors.ts';
import { authorizeHandoff, authorizeSession } from './policy.ts';
import { codeassistStore } from './store.ts';

const CODE_TTL_MS = 60_000;

const sha256 = (s: string) => createHash('sha256').update(s).digest();
export const hashCode = (code: string) => sha256(code).toString('hex');

/**
 * The web app's own login page, with or without a locale prefix, reduced to one canonical form;
 * undefined for anything else. Compared as exact strings: no other query, fragment or host.
 */
export function canonicalLoginUri(appUrl: string, uri: string): string | undefined {
  const canonical = `${appUrl}/auth/login`;
  if (uri === canonical) return canonical;
  return Locales.some((l) => uri === `${appUrl}/${l}/auth/login`) ? canonical : undefined;
}

/** S256: BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
export function verifyPkce(verifier: string, challenge: string): boolean {
  const expected = Buffer.from(challenge, 'utf8');
  const actual = Buffer.from(sha256(verifier).toString('base64url'), 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export interface ClientMeta {
  ip?: string;
  userAgent?: string;
}

/** What the code-assist operations share (docs/ARCHITECTURE.md#service-style). */
export interface CodeassistState {
  readonly ctx: AppContext;
  readonly store: ReturnType<typeof codeassistStore>;
}

/**
 * The login page hands the signed-in user to the editor: mint a single-use code. `appUrl` is
 * where that page was served from (PUBLIC_URL, or the address the browser used).
 */
export async function loginSubmit(
  s: CodeassistState,
  body: LoginSubmitRequest,
  appUrl: string,
): Promise<LoginSubmitResponse> {
  const redirect = canonicalLoginUri(appUrl, body.redirect_uri);
  if (!redirect) throw redirectNotLoginPage();
  const caller = await resolveCaller(s.ctx, body.idToken);
  authorizeHandoff(caller, body.email);
  const owner = await s.ctx.identity.findRefreshTokenSession(body.refreshToken);
  authorizeSession(
    caller,
    owner,
    owner?.uid === caller.uid && (await s.ctx.identity.isSessionActive(owner.sessionId)),
  );

  const now = new Date();
  const code = randomBytes(32).toString('base64url');
  await s.store.insertCode({
    codeHash: hashCode(code),
    uid: caller.uid,
    codeChallenge: body.code_challenge,
    redirectUri: redirect,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
  });
  void s.store
    .purgeOld(now)
    .catch((err: unknown) => s.ctx.log.warn({ err }, 'could not purge old auth codes'));

  const url = new URL(body.redirect_uri);
  url.searchParams.set('code', code);
  url.searchParams.set('state', body.state);
  return { redirect_uri: url.toString() };
}

/** The editor trades the code (and its PKCE verifier) for a session of its own. */
export async function exchange(
  s: CodeassistState,
  body: CodeTokenRequest,
  meta: ClientMeta,
): Promise<CodeTokenResponse> {
  const codeHash = hashCode(body.code);
  const row = await s.store.consume(codeHash);
  if (!row) {
    const replay = await s.store.markReplayed(codeHash);
    if (!replay.found) throw invalidGrant();
    // A used code presented again may be stolen: end whatever its first use produced.
    if (replay.mintedSessionId)
      await s.ctx.identity.revokeSession(replay.mintedSessionId, 'auth code replayed');
    throw invalidGrant('The code has already been used');
  }
  if (row.expiresAt.getTime() <= Date.now()) throw invalidGrant('The code has expired');
  // The editor may reach the server at another address than the browser did: compare with the
  // login page the code was issued on.
  if (canonicalLoginUri(new URL(row.redirectUri).origin, body.redirect_uri) !== row.redirectUri) {
    throw invalidGrant('redirect_uri does not match the one the code was issued for');
  }
  if (!verifyPkce(body.code_verifier, row.codeChallenge)) throw invalidGrant('code_verifier does not match');

  const account = await s.ctx.identity.findAccount(row.uid);
  const user = account && !account.disabled ? await s.store.findUserState(account.email) : undefined;
  if (!account || !user?.active || !user.domainActive) throw invalidGrant('The account is not active');

  const pair = await s.ctx.identity.issueSession(row.uid, {
    kind: 'editor',
    name: 'VS Code',
    ...(meta.ip ? { ip: meta.ip } : {}),
    ...(meta.userAgent ? { userAgent: meta.userAgent.slice(0, 512) } : {}),
  });
  if (!(await s.store.recordMinted(codeHash, pair.sessionId))) {
    await s.ctx.identity.revokeSession(pair.sessionId, 'auth code replayed');
    throw invalidGrant('The code has already been used');
  }
  return {
    idToken: pair.idToken,
    refreshToken: pair.refreshToken,
    expiresIn: pair.expiresIn,
    localId: pair.uid,
    email: account.email,
  };
}

/** The editor's sign-in through the web app: a one-time code, then a session of the editor's own. */
export function codeassistService(ctx: AppContext) {
  return withState({ ctx, store: codeassistStore(ctx.db) }, { loginSubmit, exchange });
}
