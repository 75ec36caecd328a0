import { type Role, WebRoutes } from '@assistente/contracts';

export type WebRoute = (typeof WebRoutes)[number];
export type WebRoutePath = WebRoute['path'];
export type LayoutName = WebRoute['layout'];
export type RouteParams = Record<string, string | undefined>;

/** What the shell knows about a route before its code is loaded. */
export interface RouteMeta {
  path: WebRoutePath;
  layout: LayoutName;
  premium: boolean;
  /** The login route: authenticated users are sent away from it. */
  loginRoute: boolean;
  /** Public: no sign-in needed (the auth layout's pages). */
  public: boolean;
  /** Roles below this get the 404 page (docs/ARCHITECTURE.md#roles-and-permissions). */
  minRole?: Role;
  /** The page's validity check; failing it raises 'Page Not Found: {path}' (docs/ARCHITECTURE.md#shell-routes-and-guards). */
  validate?: (params: RouteParams) => boolean;
  /** `false` keeps the scroll position on navigation (e.g. a chat keeps its own). */
  scrollToTop: boolean;
  /** Translation key of the page title. */
  titleKey: string;
}

/** Chat and virtual account ids. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const validId = (value: string | undefined) => value !== undefined && ID_PATTERN.test(value);

type Extras = Partial<Pick<RouteMeta, 'minRole' | 'validate' | 'scrollToTop'>> & { titleKey: string };

const extras: Record<WebRoutePath, Extras> = {
  '/': { titleKey: 'nav.home' },
  '/users': { titleKey: 'nav.users', minRole: 'Admin' },
  // docs/ARCHITECTURE.md#roles-and-permissions: a SuperAdmin manages every domain; an Admin sees their own, read-only.
  '/domains': { titleKey: 'nav.domains', minRole: 'Admin' },
  '/santitos': { titleKey: 'nav.santitos' },
  '/settings': { titleKey: 'nav.settings' },
  '/departments': { titleKey: 'nav.departments', minRole: 'Admin' },
  '/integration': { titleKey: 'nav.integration', minRole: 'Admin' },
  '/usage': { titleKey: 'nav.usage', minRole: 'Admin' },
  '/chats': { titleKey: 'nav.chats' },
  '/chats/:chatId': {
    titleKey: 'pages.chat.title',
    validate: (p) => validId(p.chatId),
    scrollToTop: false,
  },
  '/auth': { titleKey: 'pages_login.title' },
  '/auth/login': { titleKey: 'pages_login.title' },
  '/auth/reset-password': { titleKey: 'pages_reset_password.title' },
  '/s/:shareId': { titleKey: 'shares.page.title', validate: (p) => validId(p.shareId) },
  '/embedded/:virtualAccountId/chats': {
    titleKey: 'nav.chats',
    validate: (p) => validId(p.virtualAccountId),
  },
  '/embedded/:virtualAccountId/chats/:chatId': {
    titleKey: 'pages.chat.title',
    validate: (p) => validId(p.virtualAccountId) && validId(p.chatId),
    scrollToTop: false,
  },
};

const routeMetas: readonly RouteMeta[] = WebRoutes.map((route) => {
  const extra = extras[route.path];
  return {
    path: route.path,
    layout: route.layout,
    premium: 'premium' in route && route.premium === true,
    loginRoute: 'loginRoute' in route && route.loginRoute === true,
    // A shared chat's page decides itself what a signed-out reader sees (a public link, or a sign-in).
    public: route.layout === 'auth' || route.layout === 'share',
    scrollToTop: extra.scrollToTop ?? true,
    ...extra,
  };
});

export function routeMeta(path: WebRoutePath): RouteMeta {
  const meta = routeMetas.find((m) => m.path === path);
  if (!meta) throw new Error(`Unknown route ${path}`);
  return meta;
}

/** Matches an unprefixed path (`/chats/abc`) against the route table. */
export function matchRouteMeta(path: string): { meta: RouteMeta; params: RouteParams } | null {
  const segments = path.split('/').filter(Boolean);
  for (const meta of routeMetas) {
    const pattern = meta.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const params: RouteParams = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith(':')) {
        try {
          params[part.slice(1)] = decodeURIComponent(segment);
        } catch {
          params[part.slice(1)] = segment;
        }
        return true;
      }
      return part === segment;
    });
    if (matches) return { meta, params };
  }
  return null;
}
