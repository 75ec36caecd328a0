import { type Locale, Locales, StandalonePages } from '@assistente/contracts';
import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router';
import { isChunkLoadError, reloadAfterChunkError } from '../../lib/build/chunkReload.ts';
import { loadTexts } from '../../lib/i18n/index.ts';
import type { LocalePart } from '../../lib/i18n/parts.ts';
import { RouteErrorBoundary } from '../error/RouteErrorBoundary.tsx';
import { InitialSpinner, RootShell } from '../shell/RootShell.tsx';
import { routeMeta, type WebRoutePath } from './routeMeta.ts';

type ModuleWithDefault = { default: ComponentType };
type Importer = () => Promise<ModuleWithDefault>;

export interface RouteDeps {
  rootLoader: LoaderFunction;
  /** The URL being navigated to, where a chunk failure reloads. */
  pendingHref: () => string;
}

// Each page and layout is its own chunk, loaded during navigation (the old page stays up and the
// progress bar runs), so /auth/login only downloads the auth layout and the login page.
// The embedded layout's pages are not the main app's: they are a page of their own (embedded.html,
// app/embedded/EmbeddedApp.tsx), which the server serves for them.
type MainRoutePath = Exclude<WebRoutePath, `/embedded/${string}`>;

/** A page or layout whose texts go beyond the shell's: those parts load alongside its chunk. */
function withTexts(load: Importer, ...parts: LocalePart[]): Importer {
  return () => Promise.all([load(), loadTexts(...parts)]).then(([module]) => module);
}

const pages: Record<MainRoutePath, Importer> = {
  '/': () => import('../../features/home/HomePage.tsx'),
  '/users': withTexts(() => import('../../features/users/UsersPage.tsx'), 'admin'),
  '/domains': withTexts(() => import('../../features/domains/DomainsPage.tsx'), 'admin'),
  '/santitos': () => import('../../features/santitos/SantitosPage.tsx'),
  // The password tab shares the auth pages' texts.
  '/settings': withTexts(() => import('../../features/settings/SettingsPage.tsx'), 'admin', 'auth'),
  '/departments': withTexts(() => import('../../features/departments/DepartmentsPage.tsx'), 'admin'),
  '/integration': withTexts(() => import('../../features/integration/IntegrationPage.tsx'), 'admin'),
  '/usage': withTexts(() => import('../../features/usage/UsagePage.tsx'), 'admin'),
  '/chats': () => import('../../features/chats/ChatsPage.tsx'),
  '/chats/:chatId': () => import('../../features/chats/ChatPage.tsx'),
  // `/auth` always redirects (redirect guard); it has no page of its own.
  '/auth': () => import('../../features/auth/components/LoginPage.tsx'),
  '/auth/login': () => import('../../features/auth/components/LoginPage.tsx'),
  '/auth/reset-password': () => import('../../features/auth/components/ResetPasswordPage.tsx'),
  '/s/:shareId': () => import('../../features/shares/SharedChatPage.tsx'),
};

// The signed-in layouts' texts: everything but the administration pages' (which load with them).
const layouts = {
  auth: withTexts(() => import('../layouts/AuthLayout.tsx'), 'auth'),
  default: withTexts(() => import('../layouts/DefaultLayout.tsx'), 'chat', 'app'),
  chats: withTexts(() => import('../layouts/ChatsLayout.tsx'), 'chat', 'app'),
  // A shared chat's page: the chat screen's texts only (its own among them), no signed-in shell.
  share: withTexts(() => import('../layouts/ShareLayout.tsx'), 'chat'),
} satisfies Record<string, Importer>;

function lazyComponent(load: Importer, deps: RouteDeps) {
  return async () => {
    try {
      const module = await load();
      return { Component: module.default };
    } catch (error) {
      if (isChunkLoadError(error) && reloadAfterChunkError(deps.pendingHref())) {
        // The page is reloading; never settle so nothing renders meanwhile.
        return new Promise<never>(() => {});
      }
      throw error;
    }
  };
}

function page(path: MainRoutePath, childPath: string | null, deps: RouteDeps): RouteObject {
  const base = { handle: routeMeta(path), lazy: lazyComponent(pages[path], deps) };
  return childPath === null ? { index: true, ...base } : { path: childPath, ...base };
}

function localeRoutes(prefix: Locale | null, deps: RouteDeps): RouteObject {
  const id = prefix ?? 'default';
  return {
    path: prefix ? `/${prefix}` : '/',
    id: `locale:${id}`,
    children: [
      {
        id: `auth:${id}`,
        lazy: lazyComponent(layouts.auth, deps),
        children: [
          page('/auth', 'auth', deps),
          page('/auth/login', 'auth/login', deps),
          page('/auth/reset-password', 'auth/reset-password', deps),
        ],
      },
      {
        id: `default:${id}`,
        lazy: lazyComponent(layouts.default, deps),
        children: [
          page('/', null, deps),
          page('/users', 'users', deps),
          page('/domains', 'domains', deps),
          page('/santitos', 'santitos', deps),
          page('/settings', 'settings', deps),
          page('/departments', 'departments', deps),
          page('/integration', 'integration', deps),
          page('/usage', 'usage', deps),
        ],
      },
      {
        id: `chats:${id}`,
        lazy: lazyComponent(layouts.chats, deps),
        children: [page('/chats', 'chats', deps), page('/chats/:chatId', 'chats/:chatId', deps)],
      },
      {
        id: `share:${id}`,
        lazy: lazyComponent(layouts.share, deps),
        children: [page('/s/:shareId', 's/:shareId', deps)],
      },
    ],
  };
}

/**
 * Where an MCP server's sign-in ends, in a popup (features/mcp): outside the root so no guard,
 * session or shell runs for it — it only tells its opener and closes. The server's callback
 * sends the browser to the unprefixed path; the language is the remembered one.
 */
const MCP_CONNECTED_PATH = StandalonePages.mcpConnected;
const mcpConnectedPage: Importer = () => import('../../features/mcp/McpConnectedPage.tsx');

/** Unknown paths never render: the root loader throws 404 first. */
function NoPage() {
  return null;
}

/** The route tree: every page of the spec's table, unprefixed and under /en, /es, /pt-BR. */
export function createRoutes(deps: RouteDeps): RouteObject[] {
  return [
    {
      id: 'mcp-connected',
      path: MCP_CONNECTED_PATH,
      lazy: lazyComponent(mcpConnectedPage, deps),
      HydrateFallback: InitialSpinner,
    },
    {
      id: 'root',
      loader: deps.rootLoader,
      // Guards run on every navigation and after every session change.
      shouldRevalidate: () => true,
      Component: RootShell,
      HydrateFallback: InitialSpinner,
      ErrorBoundary: RouteErrorBoundary,
      children: [
        localeRoutes(null, deps),
        ...Locales.map((locale) => localeRoutes(locale, deps)),
        // Unknown paths reach the root loader, which answers 404.
        { path: '*', Component: NoPage },
      ],
    },
  ];
}
