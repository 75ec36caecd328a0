import {
  type AnchorHTMLAttributes,
  Children,
  createContext,
  type ForwardedRef,
  forwardRef,
  isValidElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';

// The embedded chat's router (docs/ARCHITECTURE.md#embedded-chat): the part of React Router's declarative API that the
// embedded page and the chat components it shows use — BrowserRouter, Routes, Route, Outlet, Link,
// useNavigate, useParams, useLocation, useSearchParams — with React Router's behaviour for it, in ~2 KB instead of
// React Router's ~29 KB gzipped. The embedded build resolves `react-router` to this file
// (vite.config.ts), so the chat's components stay as they are; a module of that build importing
// anything else from `react-router` fails the build. router.test.tsx runs the same journeys on
// React Router and on this file.

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  /** One per history entry, as React Router's. */
  key: string;
}

export type To = string | Partial<Pick<Location, 'pathname' | 'search' | 'hash'>>;

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = {
  (to: To, options?: NavigateOptions): void;
  (delta: number): void;
};

type Params = Readonly<Record<string, string | undefined>>;

interface RouterState {
  location: Location;
  navigate: NavigateFunction;
}

interface RouteState {
  params: Params;
  outlet: ReactNode;
}

const RouterContext = createContext<RouterState | null>(null);
const RouteContext = createContext<RouteState>({ params: {}, outlet: null });

/** React Router's entry in `history.state`: its key and the caller's state. */
interface HistoryEntry {
  usr: unknown;
  key: string;
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

function readLocation(): Location {
  const { pathname, search, hash } = window.location;
  const entry = window.history.state as Partial<HistoryEntry> | null;
  return { pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
}

function useRouterState(): RouterState {
  const state = useContext(RouterContext);
  if (!state) throw new Error('The embedded router’s hooks are used only inside its <BrowserRouter>');
  return state;
}

/** `to` as a path: absolute paths as they are, anything else relative to the current page. */
function hrefOf(to: To, from: Location): string {
  const target =
    typeof to === 'string' ? to : `${to.pathname ?? from.pathname}${to.search ?? ''}${to.hash ?? ''}`;
  if (target.startsWith('/')) return target;
  const url = new URL(target, `${window.location.origin}${from.pathname}${from.search}`);
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Keeps the page's address in the browser's history, as React Router's BrowserRouter does: a new
 * address renders in a transition, so a page whose code is still loading leaves the one shown up.
 */
export function BrowserRouter({ children }: { children?: ReactNode }) {
  const [location, setState] = useState(readLocation);
  const setLocation = useCallback((next: Location) => startTransition(() => setState(next)), []);

  useEffect(() => {
    const onPop = () => setLocation(readLocation());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [setLocation]);

  const navigate = useCallback(
    (to: To | number, options: NavigateOptions = {}) => {
      if (typeof to === 'number') {
        window.history.go(to);
        return;
      }
      const entry: HistoryEntry = { usr: options.state ?? null, key: newKey() };
      const href = hrefOf(to, readLocation());
      if (options.replace) window.history.replaceState(entry, '', href);
      else window.history.pushState(entry, '', href);
      setLocation(readLocation());
    },
    [setLocation],
  ) as NavigateFunction;

  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function useLocation(): Location {
  return useRouterState().location;
}

export function useNavigate(): NavigateFunction {
  return useRouterState().navigate;
}

type SearchInit = string | URLSearchParams | Record<string, string> | [string, string][];

/** The address's query, and a way to navigate to another (a new history entry unless `replace`). */
export function useSearchParams(): [
  URLSearchParams,
  (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => void,
] {
  const { location, navigate } = useRouterState();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useCallback(
    (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
      const init = typeof next === 'function' ? next(new URLSearchParams(readLocation().search)) : next;
      navigate(`?${new URLSearchParams(init)}`, options);
    },
    [navigate],
  );
  return [params, set];
}

/** The matched route's `:params`, its parents' included. */
export function useParams(): Params {
  return useContext(RouteContext).params;
}

/** Where a layout route shows its matched child. */
export function Outlet() {
  return <>{useContext(RouteContext).outlet}</>;
}

export interface RouteProps {
  /** `/a/:b/c`, or `*` for any path; none for a layout around its child routes. */
  path?: string;
  element?: ReactNode;
  children?: ReactNode;
}

/** Declares a route inside <Routes>; never rendered itself (as in React Router). */
export function Route(_props: RouteProps): ReactElement | null {
  throw new Error('<Route> is only used inside <Routes>');
}

interface RouteDef {
  path: string | undefined;
  element: ReactNode;
  children: RouteDef[];
}

function routesOf(children: ReactNode): RouteDef[] {
  return Children.toArray(children).flatMap((child) => {
    if (!isValidElement<RouteProps>(child)) return [];
    if (child.type !== Route) throw new Error('<Routes> holds only <Route> elements');
    const { path, element, children: nested } = child.props;
    return [{ path, element, children: routesOf(nested) }];
  });
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The params when `pattern` matches the whole of `pathname`, else null. As React Router: static
 * segments compare without regard to case, a trailing slash is ignored and `*` takes the rest.
 */
export function matchPattern(pattern: string, pathname: string): Params | null {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i] ?? '';
    if (part === '*') {
      params['*'] = have.slice(i).map(decode).join('/');
      return params;
    }
    const segment = have[i];
    if (segment === undefined) return null;
    if (part.startsWith(':')) params[part.slice(1)] = decode(segment);
    else if (part.toLowerCase() !== decode(segment).toLowerCase()) return null;
  }
  return have.length === want.length ? params : null;
}

/** The branch of routes (layouts first) whose leaf matches, with its params. */
function matchBranch(
  routes: readonly RouteDef[],
  pathname: string,
): { branch: RouteDef[]; params: Params } | null {
  for (const route of routes) {
    if (route.path === undefined) {
      const inner = matchBranch(route.children, pathname);
      if (inner) return { branch: [route, ...inner.branch], params: inner.params };
      continue;
    }
    const params = matchPattern(route.path, pathname);
    if (params) return { branch: [route], params };
  }
  return null;
}

/**
 * Shows the route matching the address. Routes are tried in order, so a catch-all `*` goes last;
 * for routes that never match the same path that is React Router's choice as well.
 */
export function Routes({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  const routes = useMemo(() => routesOf(children), [children]);
  const match = matchBranch(routes, pathname);
  if (!match) return null;
  // The leaf first, each layout around what it holds (its outlet).
  let shown: ReactNode = null;
  for (const route of [...match.branch].reverse()) {
    shown = (
      <RouteContext.Provider value={{ params: match.params, outlet: shown }}>
        {route.element}
      </RouteContext.Provider>
    );
  }
  return shown;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  state?: unknown;
}

/**
 * An `<a href>` that navigates in the page: a plain left click only (a modified click, another
 * target or a handler that prevented it leave it to the browser), and re-opening the page already
 * shown replaces its history entry instead of adding one, as React Router's Link does.
 */
export const Link = forwardRef(function Link(
  { to, replace, state, onClick, target, ...rest }: LinkProps,
  ref: ForwardedRef<HTMLAnchorElement>,
) {
  const { location, navigate } = useRouterState();
  const href = hrefOf(to, location);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || (target && target !== '_self')) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    const here = `${location.pathname}${location.search}${location.hash}`;
    navigate(href, { replace: replace ?? here === href, state });
  };
  return <a {...rest} ref={ref} href={href} target={target} onClick={handleClick} />;
});
