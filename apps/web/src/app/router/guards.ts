import { hasRole, type Locale, type Role } from '@assistente/contracts';
import { readHandoffQuery } from '../../features/auth/index.ts';
import { localizePath } from '../../lib/i18n/locale.ts';
import type { RouteMeta } from './routeMeta.ts';

export interface GuardContext {
  meta: RouteMeta;
  /** The path without locale prefix. */
  path: string;
  /** The requested URL's path (with prefix) and query, for the `redirect` parameter. */
  fullPath: string;
  search: URLSearchParams;
  prefix: Locale | null;
  authenticated: boolean;
  premium: boolean;
  role: Role | null;
}

export type GuardResult = { kind: 'redirect'; to: string } | { kind: 'notFound' };
export type Guard = (context: GuardContext) => GuardResult | null;

const LOGIN_PATH = '/auth/login';

/**
 * A `redirect` target when it is a local path: one leading '/', not '//' or '/\' (which
 * browsers read as another host), and not the login page itself.
 */
export function safeRedirectTarget(value: string | null): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://app.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://app.invalid') return null;
  if (/^(\/(en|es|pt-BR))?\/auth\/login$/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Login guard: signed out on a page that needs sign-in → /auth/login?redirect=…; signed in on
 * the login route → the `redirect` target or / (not during the editor handoff, which needs the
 * login page). Embedded pages have their own session and page (embedded.html): never here.
 */
export const loginGuard: Guard = (c) => {
  if (c.meta.loginRoute) {
    if (!c.authenticated || readHandoffQuery(c.search)) return null;
    return {
      kind: 'redirect',
      to: safeRedirectTarget(c.search.get('redirect')) ?? localizePath('/', c.prefix),
    };
  }
  if (c.meta.public || c.authenticated) return null;
  const query = new URLSearchParams({ redirect: c.fullPath });
  return { kind: 'redirect', to: `${localizePath(LOGIN_PATH, c.prefix)}?${query.toString()}` };
};

/** Premium guard: a signed-in user of a non-premium domain gets 404 on premium routes. */
export const premiumGuard: Guard = (c) =>
  c.meta.premium && c.authenticated && !c.premium ? { kind: 'notFound' } : null;

/** Role gate (docs/ARCHITECTURE.md#shell-routes-and-guards): pages for higher roles answer 404 rather than revealing they exist. */
export const roleGuard: Guard = (c) =>
  c.meta.minRole && c.authenticated && (!c.role || !hasRole(c.role, c.meta.minRole))
    ? { kind: 'notFound' }
    : null;

/** Redirect guard: /auth is the login page. */
export const redirectGuard: Guard = (c) =>
  c.path === '/auth'
    ? { kind: 'redirect', to: `${localizePath(LOGIN_PATH, c.prefix)}${c.search.size ? `?${c.search}` : ''}` }
    : null;

/** The global guards in the spec's order; the first that answers decides. */
export const globalGuards: readonly Guard[] = [loginGuard, premiumGuard, roleGuard, redirectGuard];

export function runGuards(
  context: GuardContext,
  guards: readonly Guard[] = globalGuards,
): GuardResult | null {
  for (const guard of guards) {
    const result = guard(context);
    if (result) return result;
  }
  return null;
}
