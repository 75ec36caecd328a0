import type { Role } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import {
  type GuardContext,
  globalGuards,
  loginGuard,
  premiumGuard,
  redirectGuard,
  roleGuard,
  runGuards,
  safeRedirectTarget,
} from './guards.ts';
import { matchRouteMeta } from './routeMeta.ts';

function context(
  url: string,
  session: { authenticated?: boolean; premium?: boolean; role?: Role | null } = {},
): GuardContext {
  const parsed = new URL(url, 'http://app.test');
  const prefixMatch = /^\/(en|es|pt-BR)(?=\/|$)/.exec(parsed.pathname);
  const prefix = (prefixMatch?.[1] ?? null) as GuardContext['prefix'];
  const path = prefixMatch ? parsed.pathname.slice(prefixMatch[0].length) || '/' : parsed.pathname;
  const match = matchRouteMeta(path);
  if (!match) throw new Error(`no route for ${path}`);
  return {
    meta: match.meta,
    path,
    fullPath: `${parsed.pathname}${parsed.search}`,
    search: parsed.searchParams,
    prefix,
    authenticated: session.authenticated ?? false,
    premium: session.premium ?? false,
    role: session.role ?? (session.authenticated ? 'Viewer' : null),
  };
}

const signedIn = { authenticated: true, role: 'Viewer' as Role };

describe('login guard', () => {
  it('sends a signed-out user on a private page to the login page with the page as redirect', () => {
    expect(loginGuard(context('/chats/abc?x=1'))).toEqual({
      kind: 'redirect',
      to: '/auth/login?redirect=%2Fchats%2Fabc%3Fx%3D1',
    });
  });

  it('keeps the locale prefix', () => {
    expect(loginGuard(context('/en/users'))).toEqual({
      kind: 'redirect',
      to: '/en/auth/login?redirect=%2Fen%2Fusers',
    });
  });

  it('lets signed-out users reach the auth pages', () => {
    expect(loginGuard(context('/auth/login'))).toBeNull();
    expect(loginGuard(context('/auth/reset-password?oobCode=abc'))).toBeNull();
  });

  it('sends a signed-in user away from the login route to /', () => {
    expect(loginGuard(context('/auth/login', signedIn))).toEqual({ kind: 'redirect', to: '/' });
    expect(loginGuard(context('/es/auth/login', signedIn))).toEqual({ kind: 'redirect', to: '/es' });
  });

  it('…or to a local redirect target', () => {
    expect(loginGuard(context('/auth/login?redirect=%2Fchats%3Fq%3D1', signedIn))).toEqual({
      kind: 'redirect',
      to: '/chats?q=1',
    });
  });

  it('ignores a redirect target on another site', () => {
    expect(loginGuard(context('/auth/login?redirect=%2F%2Fevil.example', signedIn))).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('keeps a signed-in user on the login page during the editor handoff', () => {
    const url = '/auth/login?provider=authkit&code_challenge=abc&state=s';
    expect(loginGuard(context(url, signedIn))).toBeNull();
    // without provider=authkit it is an ordinary login page visit
    expect(loginGuard(context('/auth/login?code_challenge=abc', signedIn))).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });
});

describe('premium guard', () => {
  it('answers 404 to a signed-in non-premium user on a premium route', () => {
    expect(premiumGuard(context('/santitos', signedIn))).toEqual({ kind: 'notFound' });
    expect(premiumGuard(context('/integration', { ...signedIn, role: 'Admin' }))).toEqual({
      kind: 'notFound',
    });
  });

  it('lets premium users in and ignores other routes', () => {
    expect(premiumGuard(context('/santitos', { ...signedIn, premium: true }))).toBeNull();
    expect(premiumGuard(context('/chats', signedIn))).toBeNull();
  });
});

describe('role guard', () => {
  it('answers 404 below the page role', () => {
    expect(roleGuard(context('/users', signedIn))).toEqual({ kind: 'notFound' });
    expect(roleGuard(context('/domains', { ...signedIn, role: 'Editor' }))).toEqual({ kind: 'notFound' });
    expect(roleGuard(context('/departments', { ...signedIn, role: 'Editor' }))).toEqual({ kind: 'notFound' });
  });

  it('lets the role and higher ones in', () => {
    expect(roleGuard(context('/users', { ...signedIn, role: 'Admin' }))).toBeNull();
    expect(roleGuard(context('/departments', { ...signedIn, role: 'SuperAdmin' }))).toBeNull();
    expect(roleGuard(context('/domains', { ...signedIn, role: 'SuperAdmin' }))).toBeNull();
    expect(roleGuard(context('/domains', { ...signedIn, role: 'Admin' }))).toBeNull();
  });
});

describe('redirect guard', () => {
  it('sends /auth to /auth/login keeping the query and prefix', () => {
    expect(redirectGuard(context('/auth'))).toEqual({ kind: 'redirect', to: '/auth/login' });
    expect(redirectGuard(context('/en/auth?provider=authkit'))).toEqual({
      kind: 'redirect',
      to: '/en/auth/login?provider=authkit',
    });
  });
});

describe('guard order', () => {
  it('runs login, premium, role, redirect', () => {
    expect(globalGuards).toEqual([loginGuard, premiumGuard, roleGuard, redirectGuard]);
  });

  it('login comes before premium: a signed-out user on a premium page is asked to sign in', () => {
    expect(runGuards(context('/santitos'))).toMatchObject({ kind: 'redirect' });
  });

  it('premium comes before role: a non-premium Viewer on /integration gets 404 from premium', () => {
    const calls: string[] = [];
    const spy = (name: string, guard: (typeof globalGuards)[number]) => (c: GuardContext) => {
      calls.push(name);
      return guard(c);
    };
    const result = runGuards(context('/integration', signedIn), [
      spy('login', loginGuard),
      spy('premium', premiumGuard),
      spy('role', roleGuard),
      spy('redirect', redirectGuard),
    ]);
    expect(result).toEqual({ kind: 'notFound' });
    expect(calls).toEqual(['login', 'premium']);
  });

  it('lets an allowed visit through', () => {
    expect(runGuards(context('/chats', signedIn))).toBeNull();
    expect(runGuards(context('/santitos', { ...signedIn, premium: true }))).toBeNull();
  });
});

describe('safeRedirectTarget', () => {
  it('accepts local paths only', () => {
    expect(safeRedirectTarget('/chats/1?x=2#m')).toBe('/chats/1?x=2#m');
    expect(safeRedirectTarget('/en/users')).toBe('/en/users');
    expect(safeRedirectTarget(null)).toBeNull();
    expect(safeRedirectTarget('')).toBeNull();
    expect(safeRedirectTarget('chats')).toBeNull();
    expect(safeRedirectTarget('//evil.example/x')).toBeNull();
    expect(safeRedirectTarget('/\\evil.example')).toBeNull();
    expect(safeRedirectTarget('https://evil.example')).toBeNull();
    expect(safeRedirectTarget('/\tx')).toBeNull();
  });

  it('refuses the login page itself (no loop)', () => {
    expect(safeRedirectTarget('/auth/login')).toBeNull();
    expect(safeRedirectTarget('/pt-BR/auth/login?redirect=/x')).toBeNull();
  });
});
