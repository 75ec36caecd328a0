import type { RevokeAllSessions, Session, SessionsRevoked } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { notFound } from '../../lib/errors.ts';
import type { SettingsState } from './state.ts';

/** Live sessions of the caller's account, browsers and editors alike, most recently used first. */
export async function listSessions(state: SettingsState, caller: UserCaller): Promise<Session[]> {
  const { ctx } = state;
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
}

/** Ends one of the caller's own sessions (the current one too: that is signing out). */
export async function revokeSession(state: SettingsState, caller: UserCaller, id: string): Promise<void> {
  const { ctx } = state;
  const sessions = await ctx.identity.listSessions(caller.uid);
  if (!sessions.some((s) => s.id === id)) throw notFound('Session not found');
  await ctx.identity.revokeSession(id, 'revoked_from_settings');
}

/** Signs the caller out everywhere, or everywhere but this session. */
export async function revokeAllSessions(
  state: SettingsState,
  caller: UserCaller,
  body: RevokeAllSessions,
): Promise<SessionsRevoked> {
  const { ctx } = state;
  const sessions = await ctx.identity.listSessions(caller.uid);
  const ending = sessions.filter((s) => !(body.keepCurrent && s.id === caller.sessionId));
  await ctx.identity.revokeAllSessions(
    caller.uid,
    'signed_out_everywhere',
    body.keepCurrent ? { except: caller.sessionId } : {},
  );
  return { revoked: ending.length };
}
