import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type CodeTokenRequest,
  type CodeTokenResponse,
  Locales,
  type LoginSubmitRequest,
  type LoginSubmitResponse,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
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

export function codeassistService(ctx: AppContext) {
  const store = codeassistStore(ctx.db);

  return {
    /**
     * The login page hands the signed-in user to the editor: mint a single-use code. `appUrl` is
     * where that page was served from (PUBLIC_URL, or the address the browser used).
     */
    async loginSubmit(body: LoginSubmitRequest, appUrl: string): Promise<LoginSubmitResponse> {
      const redirect = canonicalLoginUri(appUrl, body.redirect_uri);
      if (!redirect) throw redirectNotLoginPage();
      const caller = await resolveCaller(ctx, body.idToken);
      authorizeHandoff(caller, body.email);
      const owner = await ctx.identity.findRefreshTokenSession(body.refreshToken);
      authorizeSession(
        caller,
        owner,
        owner?.uid === caller.uid && (await ctx.identity.isSessionActive(owner.sessionId)),
      );

      const now = new Date();
      const code = randomBytes(32).toString('base64url');
      await store.insertCode({
        codeHash: hashCode(code),
        uid: caller.uid,
        codeChallenge: body.code_challenge,
        redirectUri: redirect,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      });
      void store
        .purgeOld(now)
        .catch((err: unknown) => ctx.log.warn({ err }, 'could not purge old auth codes'));

      const url = new URL(body.redirect_uri);
      url.searchParams.set('code', code);
      url.searchParams.set('state', body.state);
      return { redirect_uri: url.toString() };
    },

    /** The editor trades the code (and its PKCE verifier) for a session of its own. */
    async exchange(body: CodeTokenRequest, meta: ClientMeta): Promise<CodeTokenResponse> {
      const codeHash = hashCode(body.code);
      const row = await store.consume(codeHash);
      if (!row) {
        const replay = await store.markReplayed(codeHash);
        if (!replay.found) throw invalidGrant();
        // A used code presented again may be stolen: end whatever its first use produced.
        if (replay.mintedSessionId)
          await ctx.identity.revokeSession(replay.mintedSessionId, 'auth code replayed');
        throw invalidGrant('The code has already been used');
      }
      if (row.expiresAt.getTime() <= Date.now()) throw invalidGrant('The code has expired');
      // The editor may reach the server at another address than the browser did: compare with the
      // login page the code was issued on.
      if (canonicalLoginUri(new URL(row.redirectUri).origin, body.redirect_uri) !== row.redirectUri) {
        throw invalidGrant('redirect_uri does not match the one the code was issued for');
      }
      if (!verifyPkce(body.code_verifier, row.codeChallenge))
        throw invalidGrant('code_verifier does not match');

      const account = await ctx.identity.findAccount(row.uid);
      const user = account && !account.disabled ? await store.findUserState(account.email) : undefined;
      if (!account || !user?.active || !user.domainActive) throw invalidGrant('The account is not active');

      const pair = await ctx.identity.issueSession(row.uid, {
        kind: 'editor',
        name: 'VS Code',
        ...(meta.ip ? { ip: meta.ip } : {}),
        ...(meta.userAgent ? { userAgent: meta.userAgent.slice(0, 512) } : {}),
      });
      if (!(await store.recordMinted(codeHash, pair.sessionId))) {
        await ctx.identity.revokeSession(pair.sessionId, 'auth code replayed');
        throw invalidGrant('The code has already been used');
      }
      return {
        idToken: pair.idToken,
        refreshToken: pair.refreshToken,
        expiresIn: pair.expiresIn,
        localId: pair.uid,
        email: account.email,
      };
    },
  };
}
