import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { CallerResolver, UserCaller } from '../lib/caller.ts';
import { invalidIdToken, unauthenticated } from '../lib/errors.ts';

/**
 * Turns an id token into a user caller. This plugin checks the credential — signature and expiry,
 * live session — and the accounts module, which owns users and domains, says who it is (enabled
 * identity account, active user, active domain). Used by the auth hook, the agents websocket and
 * code assist.
 */
export async function resolveCaller(ctx: AppContext, idToken: string): Promise<UserCaller> {
  const claims = await ctx.identity.verifyIdToken(idToken);
  const sid = claims.sid;
  if (!sid) throw invalidIdToken();
  if (!(await ctx.identity.isSessionActive(sid))) {
    throw unauthenticated('Your session has ended; sign in again');
  }
  return ctx.services.callerStates.userCaller({ ...claims, sid });
}

/**
 * `resolveCaller` from the caches alone — a token already verified and unexpired, a session known
 * live, an account known able to act — without a promise; undefined sends the request down the
 * full path. The caches are the same ones, dropped on revocation in the same way.
 */
function peekCaller(ctx: AppContext, idToken: string): UserCaller | undefined {
  const claims = ctx.identity.peekIdToken(idToken);
  const sid = claims?.sid;
  if (!claims || !sid || ctx.identity.peekSessionActive(sid) !== true) return undefined;
  return ctx.services.callerStates.peekUserCaller(claims, sid);
}

const SCHEME_RE = /^Bearer[ \t]+/i;
const TOKEN_RE = /^[A-Za-z0-9._~+/=-]+$/;

/**
 * The credential of `Authorization: Bearer <credential>`, surrounding blanks trimmed. Its
 * characters are not checked here: a token the caches already know is well formed, and
 * `wellFormedToken` checks any other before it is verified (scanning ~900 characters on every
 * request cost more than the rest of the header's handling).
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const scheme = SCHEME_RE.exec(header);
  if (!scheme) return undefined;
  let end = header.length;
  while (end > scheme[0].length && (header[end - 1] === ' ' || header[end - 1] === '\t')) end--;
  return end > scheme[0].length ? header.slice(scheme[0].length, end) : undefined;
}

/** RFC 6750's b64token: what a bearer credential may contain. */
export function wellFormedToken(token: string): boolean {
  return TOKEN_RE.test(token);
}

/**
 * The `user` caller kind's resolver, registered by the accounts module's manifest. Only the
 * Authorization header counts: the `Domain`/`Department` headers and the
 * `domain`/`department`/`user`/`email` query parameters the web client adds are logging hints and
 * never reach this decision (docs/ARCHITECTURE.md#callers).
 */
export function userResolver(ctx: AppContext): CallerResolver<'user'> {
  return {
    resolve: (token) => resolveCaller(ctx, token),
    peek: (token) => peekCaller(ctx, token),
  };
}
