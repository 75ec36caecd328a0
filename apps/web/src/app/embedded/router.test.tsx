import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createRef, type ReactNode } from 'react';
import * as reactRouter from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as embeddedRouter from './router.tsx';

// The embedded chat's build puts router.tsx where `react-router` is (vite.config.ts). Every journey
// here runs on React Router itself and on router.tsx: what the embedded page and the chat's
// components use must behave the same on both.

interface RouterApi {
  BrowserRouter: (props: { children?: ReactNode }) => ReactNode;
  Routes: (props: { children?: ReactNode }) => ReactNode;
  Route: (props: { path?: string; element?: ReactNode; children?: ReactNode }) => ReactNode;
  Outlet: () => ReactNode;
  Link: typeof embeddedRouter.Link;
  useNavigate: () => (to: string | number, options?: { replace?: boolean; state?: unknown }) => void;
  useParams: () => Readonly<Record<string, string | undefined>>;
  useLocation: () => { pathname: string; search: string; hash: string; state: unknown; key: string };
  useSearchParams: () => [
    URLSearchParams,
    (next: Record<string, string>, options?: { replace?: boolean }) => void,
  ];
}

const routers: [string, RouterApi][] = [
  ['React Router', reactRouter as unknown as RouterApi],
  ['the embedded router', embeddedRouter as unknown as RouterApi],
];

beforeEach(() => {
  // A new entry: what an earlier test went back from is no longer ahead (history.length counts it).
  window.history.pushState(null, '', '/');
});
afterEach(() => {
  cleanup();
});

describe.each(routers)('%s', (_name, R) => {
  /** Where the page is, and a handle on the router's navigate. */
  let navigate: ReturnType<RouterApi['useNavigate']> = () => {};
  function Where() {
    const location = R.useLocation();
    navigate = R.useNavigate();
    return (
      <output data-testid="where" data-state={JSON.stringify(location.state ?? null)}>
        {`${location.pathname}${location.search}${location.hash}`}
      </output>
    );
  }

  function Chat() {
    const { virtualAccountId, chatId } = R.useParams();
    return <p data-testid="page">{`chat ${virtualAccountId} ${chatId}`}</p>;
  }
  function NewChat() {
    const { virtualAccountId } = R.useParams();
    const [search, setSearch] = R.useSearchParams();
    return (
      <>
        <p data-testid="page">{`new ${virtualAccountId} ${search.get('q') ?? ''}`}</p>
        <button type="button" onClick={() => setSearch({ q: 'sapatos' })}>
          search
        </button>
      </>
    );
  }
  function Layout() {
    return (
      <main data-testid="layout">
        <R.Link to="/embedded/va-1/chats/c-1">open c-1</R.Link>
        <R.Link to="/embedded/va-1/chats">new chat</R.Link>
        <R.Link to="/embedded/va-1/chats/c-2" onClick={(event) => event.preventDefault()}>
          prevented
        </R.Link>
        <R.Outlet />
      </main>
    );
  }

  function renderAt(url: string) {
    window.history.replaceState(null, '', url);
    return render(
      <R.BrowserRouter>
        <Where />
        <R.Routes>
          <R.Route element={<Layout />}>
            <R.Route path="/embedded/:virtualAccountId/chats" element={<NewChat />} />
            <R.Route path="/embedded/:virtualAccountId/chats/:chatId" element={<Chat />} />
            <R.Route path="/en/embedded/:virtualAccountId/chats/:chatId" element={<Chat />} />
          </R.Route>
          <R.Route path="*" element={<p data-testid="page">nowhere</p>} />
        </R.Routes>
      </R.BrowserRouter>,
    );
  }

  const page = () => screen.getByTestId('page').textContent;
  const where = () => screen.getByTestId('where').textContent;

  it('shows the route of the address inside its layout, with its params decoded', () => {
    renderAt('/en/embedded/va-1/chats/a%20b');
    expect(screen.getByTestId('layout')).toBeTruthy();
    expect(page()).toBe('chat va-1 a b');
  });

  it('matches static parts in any case and ignores a trailing slash; anything else is the catch-all', () => {
    renderAt('/Embedded/va-1/CHATS/');
    expect(page()).toBe('new va-1 ');
    cleanup();
    renderAt('/embedded/va-1');
    expect(page()).toBe('nowhere');
    expect(screen.queryByTestId('layout')).toBeNull();
  });

  it('follows a plain click on a link as a new history entry, and comes back with the browser', async () => {
    renderAt('/embedded/va-1/chats');
    const before = window.history.length;
    const link = screen.getByRole('link', { name: 'open c-1' });
    expect(link.getAttribute('href')).toBe('/embedded/va-1/chats/c-1');
    // Handled by the router: the browser's own navigation is prevented.
    expect(fireEvent.click(link, { button: 0 })).toBe(false);
    await waitFor(() => expect(page()).toBe('chat va-1 c-1'));
    expect(window.location.pathname).toBe('/embedded/va-1/chats/c-1');
    expect(window.history.length).toBe(before + 1);

    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    await waitFor(() => expect(page()).toBe('new va-1 '));
  });

  it('replaces the entry when the link goes where the page already is', async () => {
    renderAt('/embedded/va-1/chats');
    const before = window.history.length;
    fireEvent.click(screen.getByRole('link', { name: 'new chat' }), { button: 0 });
    await waitFor(() => expect(where()).toBe('/embedded/va-1/chats'));
    expect(window.history.length).toBe(before);
  });

  it('leaves a modified click, or one its handler prevented, to the browser', () => {
    renderAt('/embedded/va-1/chats');
    // Ctrl-click: not prevented (the browser opens a tab), and the page stays.
    expect(
      fireEvent.click(screen.getByRole('link', { name: 'open c-1' }), { button: 0, ctrlKey: true }),
    ).toBe(true);
    fireEvent.click(screen.getByRole('link', { name: 'prevented' }), { button: 0 });
    expect(page()).toBe('new va-1 ');
    expect(window.location.pathname).toBe('/embedded/va-1/chats');
  });

  it('navigates by code, pushing or replacing, with state', async () => {
    renderAt('/embedded/va-1/chats');
    const before = window.history.length;
    act(() => navigate('/embedded/va-1/chats/c-9', { state: { from: 'test' } }));
    await waitFor(() => expect(page()).toBe('chat va-1 c-9'));
    expect(screen.getByTestId('where').dataset.state).toBe('{"from":"test"}');
    expect(window.history.length).toBe(before + 1);
    act(() => navigate('/embedded/va-1/chats/c-10', { replace: true }));
    await waitFor(() => expect(page()).toBe('chat va-1 c-10'));
    expect(window.history.length).toBe(before + 1);
    expect(screen.getByTestId('where').dataset.state).toBe('null');
  });

  it('reads and sets the query, keeping the path', async () => {
    renderAt('/embedded/va-1/chats?q=botas');
    expect(page()).toBe('new va-1 botas');
    fireEvent.click(screen.getByRole('button', { name: 'search' }));
    await waitFor(() => expect(where()).toBe('/embedded/va-1/chats?q=sapatos'));
    expect(page()).toBe('new va-1 sapatos');
  });

  it('hands a link’s element to a ref (Mantine’s `component={Link}` needs it)', () => {
    const ref = createRef<HTMLAnchorElement>();
    render(
      <R.BrowserRouter>
        <R.Link ref={ref} to="/embedded/va-1/chats" className="row">
          row
        </R.Link>
      </R.BrowserRouter>,
    );
    expect(ref.current?.tagName).toBe('A');
    expect(ref.current?.className).toBe('row');
  });
});
