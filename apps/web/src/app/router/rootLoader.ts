import type { Locale } from '@assistente/contracts';
import { data, type LoaderFunctionArgs, replace } from 'react-router';
import { type AccountSession, isAuthenticated, isPremium } from '../../features/auth/index.ts';
import type { LocaleResolution } from '../../lib/i18n/locale.ts';
import { runGuards } from './guards.ts';
import { matchRouteMeta } from './routeMeta.ts';
import { stripTrailingSlash } from './trailingSlash.ts';

/** The payload of a page error (shown by the error page). */
export interface PageErrorData {
  statusCode: number;
  message: string;
  fatal: boolean;
}

/** The spec's page-validation failure: 404, 'Page Not Found: {path}'. */
function pageNotFound(pathname: string) {
  return data<PageErrorData>(
    { statusCode: 404, message: `Page Not Found: ${pathname}`, fatal: true },
    { status: 404 },
  );
}

export interface RootLoaderDeps {
  resolveLocale(pathname: string): LocaleResolution;
  rememberLocale(locale: Locale): void;
  setLanguage(locale: Locale): Promise<void>;
  waitForAuth(): Promise<void>;
  accountSession(): AccountSession;
  /** The hash of the URL being loaded (loaders only see path and query). */
  hashOf(pathname: string): string;
}

export interface RootLoaderData {
  locale: Locale;
  prefix: Locale | null;
}

/**
 * Runs before every navigation (the root revalidates always): trailing slash, language,
 * route existence and validity, then the global guards in order.
 */
export function createRootLoader(deps: RootLoaderDeps) {
  return async function rootLoader({ request }: LoaderFunctionArgs): Promise<RootLoaderData> {
    const url = new URL(request.url);

    const slashless = stripTrailingSlash(url.pathname);
    if (slashless !== null) throw replace(`${slashless}${url.search}${deps.hashOf(url.pathname)}`);

    const { locale, prefix, path } = deps.resolveLocale(url.pathname);
    if (prefix) deps.rememberLocale(prefix);
    await deps.setLanguage(locale);

    const match = matchRouteMeta(path);
    // The embedded layout's pages are embedded.html's, never this app's (docs/ARCHITECTURE.md#embedded-chat): the server
    // and `vite` answer their addresses with that page, and nothing in this app links to one.
    const ours = match !== null && match.meta.layout !== 'embedded';
    if (!ours || (match.meta.validate && !match.meta.validate(match.params))) {
      throw pageNotFound(url.pathname);
    }

    await deps.waitForAuth();
    const session = deps.accountSession();
    const result = runGuards({
      meta: match.meta,
      path,
      // A loader's request has no hash; on a first load the page's address still has it, and the
      // redirect after sign-in must keep it (a link to a heading of a page).
      fullPath: `${url.pathname}${url.search}${sameDocumentHash(url)}`,
      search: url.searchParams,
      prefix,
      authenticated: isAuthenticated(session),
      premium: isPremium(session.domain),
      role: session.apiUser?.role ?? null,
    });
    if (result?.kind === 'redirect') throw replace(result.to);
    if (result?.kind === 'notFound') throw pageNotFound(url.pathname);
    return { locale, prefix };
  };
}

/** The hash of the address being loaded, when it is the browser's current one (a first load). */
function sameDocumentHash(url: URL): string {
  if (typeof window === 'undefined') return '';
  const here = window.location;
  return here.pathname === url.pathname && here.search === url.search ? here.hash : '';
}
