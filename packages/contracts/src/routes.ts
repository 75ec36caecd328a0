import { Locales } from './locales.ts';

/** The web app's route table (docs/ARCHITECTURE.md#shell-routes-and-guards). Shared so the server can answer 404 for anything else. */
export const WebRoutes = [
  { path: '/', layout: 'default' },
  { path: '/users', layout: 'default' },
  { path: '/domains', layout: 'default' },
  { path: '/santitos', layout: 'default', premium: true },
  { path: '/settings', layout: 'default' },
  { path: '/departments', layout: 'default' },
  { path: '/integration', layout: 'default', premium: true },
  { path: '/usage', layout: 'default' },
  { path: '/chats', layout: 'chats' },
  { path: '/chats/:chatId', layout: 'chats' },
  { path: '/auth', layout: 'auth' },
  { path: '/auth/login', layout: 'auth', loginRoute: true },
  { path: '/auth/reset-password', layout: 'auth' },
  // A chat shared by link (docs/ARCHITECTURE.md#share-links): readable without signing in when it may be.
  { path: '/s/:shareId', layout: 'share' },
  { path: '/embedded/:virtualAccountId/chats', layout: 'embedded' },
  { path: '/embedded/:virtualAccountId/chats/:chatId', layout: 'embedded' },
] as const;

/**
 * Pages served outside the shell (no layout, no guards, no session): the server answers them like
 * a route. `/integration/mcp-connected` is where an MCP server's sign-in popup ends
 * (docs/ARCHITECTURE.md#mcp-servers).
 */
export const StandalonePages = { mcpConnected: '/integration/mcp-connected' } as const;

const localePrefix = new RegExp(`^/(${Locales.map((l) => l.replace('-', '\\-')).join('|')})(?=/|$)`);

/** Splits `/pt-BR/chats` into `{ locale: 'pt-BR', path: '/chats' }`. */
export function splitLocale(pathname: string): { locale: (typeof Locales)[number] | null; path: string } {
  const m = localePrefix.exec(pathname);
  if (!m) return { locale: null, path: pathname };
  const rest = pathname.slice(m[0].length);
  return { locale: m[1] as (typeof Locales)[number], path: rest === '' ? '/' : rest };
}

const compiled = WebRoutes.map((r) => ({
  route: r,
  re: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`),
}));

/** Whether a path (with or without locale prefix) is one of the standalone pages. */
export const isStandalonePage = (pathname: string): boolean =>
  Object.values(StandalonePages).some((p) => p === splitLocale(pathname).path);

/** The route a path (with or without locale prefix) belongs to, if any. */
export function matchWebRoute(pathname: string): (typeof WebRoutes)[number] | undefined {
  const { path } = splitLocale(pathname);
  return compiled.find((c) => c.re.test(path))?.route;
}
