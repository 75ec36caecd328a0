import { cleanup, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountSession } from '../../features/auth/session.ts';
import { setLanguage, translator } from '../../lib/i18n/index.ts';
import { resolveLocale } from '../../lib/i18n/locale.ts';
import { installFakeServices, resetSession, signInSession } from '../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../test/render.tsx';
import { setUi } from '../../ui/uiStore.ts';
import { createRootLoader } from './rootLoader.ts';
import { createRoutes } from './routes.tsx';

beforeAll(async () => {
  await loadTestTexts();
  // A route's first lazy load pays for transforming its modules, seconds on a busy machine, and the
  // router loads the modules of a path it then redirects from: load those the tests visit here so
  // the tests wait on routing, not on the transform.
  await Promise.all([
    import('../layouts/AuthLayout.tsx'),
    import('../layouts/DefaultLayout.tsx'),
    import('../layouts/ChatsLayout.tsx'),
    import('../../features/auth/components/LoginPage.tsx'),
    import('../../features/home/HomePage.tsx'),
    import('../../features/chats/ChatsPage.tsx'),
    import('../../features/users/UsersPage.tsx'),
  ]);
}, 60_000);
afterEach(() => {
  resetSession();
  setUi({ loadingAuthPlugin: true });
});

function renderApp(url: string, options: { authReady?: Promise<void>; hash?: string } = {}) {
  const rootLoader = createRootLoader({
    resolveLocale: (pathname) => resolveLocale({ pathname, cookie: null, languages: [] }),
    rememberLocale: () => {},
    setLanguage,
    waitForAuth: () => options.authReady ?? Promise.resolve(),
    accountSession: () => accountSession.getState(),
    hashOf: () => options.hash ?? '',
  });
  const router = createMemoryRouter(createRoutes({ rootLoader, pendingHref: () => url }), {
    initialEntries: [url],
  });
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('app routes', () => {
  it('shows the large spinner while the auth state loads, then the page', async () => {
    installFakeServices();
    let release: () => void = () => {};
    const authReady = new Promise<void>((resolve) => {
      release = resolve;
    });
    setUi({ loadingAuthPlugin: false });
    renderApp('/auth/login', { authReady });
    expect(await screen.findByTestId('app-spinner')).toBeTruthy();
    release();
    // The first lazy page this file loads is compiled on demand: slow on a busy machine.
    expect(await screen.findByRole('button', { name: 'Entrar' }, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows the end of an MCP sign-in to a signed-out popup: no guard, no session wait', async () => {
    installFakeServices();
    setUi({ loadingAuthPlugin: false });
    // The auth state never loads: the page must not wait for it.
    const router = renderApp('/integration/mcp-connected?status=denied', {
      authReady: new Promise(() => {}),
    });
    expect((await screen.findByTestId('mcp-connected-status', {}, { timeout: 10_000 })).textContent).toBe(
      'O acesso não foi concedido. Você pode fechar esta janela.',
    );
    expect(router.state.location.pathname).toBe('/integration/mcp-connected');
  });

  it('sends a signed-out visitor to the login page with the redirect', async () => {
    installFakeServices();
    setUi({ loadingAuthPlugin: false });
    const router = renderApp('/chats');
    expect(await screen.findByLabelText('E-mail')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.search).toBe('?redirect=%2Fchats');
  });

  it('strips a trailing slash keeping query and hash', async () => {
    installFakeServices();
    setUi({ loadingAuthPlugin: false });
    const router = renderApp('/auth/reset-password/?from=mail', { hash: '#top' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/reset-password'));
    expect(router.state.location.search).toBe('?from=mail');
    expect(router.state.location.hash).toBe('#top');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the 404 error page for a malformed chat id', async () => {
    installFakeServices();
    signInSession();
    setUi({ loadingAuthPlugin: false });
    renderApp('/chats/not%20valid!');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
    expect(screen.getByText('404')).toBeTruthy();
  });

  it('shows the 404 error page for unknown paths', async () => {
    installFakeServices();
    setUi({ loadingAuthPlugin: false });
    renderApp('/does/not/exist');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
  });

  it('answers 404 to a Viewer on an Admin page', async () => {
    installFakeServices();
    signInSession({ role: 'Viewer' });
    setUi({ loadingAuthPlugin: false });
    renderApp('/users');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
  });

  it('/integration keeps its tab in ?tab=, and shows single sign-on to SuperAdmins only', async () => {
    installFakeServices();
    signInSession({ role: 'Admin' }, true);
    setUi({ loadingAuthPlugin: false });
    // An Admin asking for the SuperAdmins' tab gets the first tab instead.
    renderApp('/integration?tab=sso');
    const first = await screen.findByRole('tab', { name: 'Conhecimento' }, { timeout: 10_000 });
    expect(first.getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('tab', { name: 'Login único (SSO)' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Chaves de API' })).toBeTruthy();
    cleanup();

    signInSession({ role: 'SuperAdmin' }, true);
    renderApp('/integration?tab=sso');
    const sso = await screen.findByRole('tab', { name: 'Login único (SSO)' }, { timeout: 10_000 });
    expect(sso.getAttribute('aria-selected')).toBe('true');
  });

  it('greets a signed-in user on / inside the default layout', async () => {
    installFakeServices();
    signInSession();
    setUi({ loadingAuthPlugin: false });
    renderApp('/');
    expect((await screen.findByTestId('home-greeting')).textContent).toBe('Olá, Ana');
    expect(screen.getByRole('navigation', { name: 'Navegação principal' })).toBeTruthy();
  });

  it('loads the administration pages’ texts with those pages only, not with /chats', async () => {
    installFakeServices();
    signInSession({ role: 'Admin' }, true);
    setUi({ loadingAuthPlugin: false });
    const asked = vi.spyOn(translator, 'loadParts');
    try {
      renderApp('/chats');
      await screen.findByRole('navigation', { name: 'Navegação principal' }, { timeout: 10_000 });
      const parts = () => asked.mock.calls.flatMap(([which]) => which);
      expect(parts()).toEqual(expect.arrayContaining(['chat', 'app']));
      expect(parts()).not.toContain('admin');
      cleanup();

      renderApp('/users');
      await screen.findByRole('heading', { name: 'Usuários' }, { timeout: 10_000 });
      expect(parts()).toContain('admin');
    } finally {
      asked.mockRestore();
    }
  });

  it('has no embedded pages: they are embedded.html’s (app/embedded), and answer 404 here', async () => {
    installFakeServices();
    setUi({ loadingAuthPlugin: false });
    renderApp('/embedded/va-1/chats');
    expect((await screen.findByTestId('error-page')).textContent).toContain('404');
  });

  it('serves the pages under a locale prefix in that language', async () => {
    installFakeServices();
    setUi({ loadingAuthPlugin: false });
    renderApp('/en/auth/login');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    await setLanguage('pt-BR');
  });
});
