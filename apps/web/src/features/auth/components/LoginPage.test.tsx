import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../lib/http/errors.ts';
import { IdentityError } from '../../../lib/identity/errors.ts';
import { openExternalUrl } from '../../../lib/navigation.ts';
import {
  installFakeServices,
  resetSession,
  signInSession,
  testIdentityUser,
} from '../../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { popup } from '../../../ui/popup/popupStore.ts';
import { accountSession } from '../session.ts';
import LoginPage from './LoginPage.tsx';

vi.mock('../../../lib/navigation.ts', () => ({ openExternalUrl: vi.fn() }));

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => {
  resetSession();
  popup.hide();
});

function renderLogin(url = '/auth/login') {
  const router = createMemoryRouter(
    [
      { path: '/auth/login', element: <LoginPage /> },
      { path: '/en/auth/login', element: <LoginPage /> },
      { path: '/auth/reset-password', element: <p>reset</p> },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const submit = (email: string, password: string) => {
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Senha'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
};

describe('LoginPage', () => {
  it("has the spec's labels, button and link, and no provider buttons when none is configured", async () => {
    const services = installFakeServices();
    renderLogin();
    expect(screen.getByLabelText('E-mail')).toBeTruthy();
    expect(screen.getByLabelText('Senha')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Esqueci minha senha' }).getAttribute('href')).toBe(
      '/auth/reset-password',
    );
    await waitFor(() => expect(services.identity.listSsoProviders).toHaveBeenCalled());
    expect(screen.queryByText('Entrar com Google')).toBeNull();
    expect(screen.queryByText('Entrar com Confluence')).toBeNull();
    expect(screen.queryByText('ou')).toBeNull();
  });

  it('offers one button per configured provider, going to its start with the redirect and locale', async () => {
    const services = installFakeServices();
    services.identity.listSsoProviders.mockResolvedValue([
      { id: 'env', displayName: 'Google', kind: 'google' },
      { id: 'sso1', displayName: 'Acme Keycloak', kind: 'oidc' },
    ]);
    renderLogin('/en/auth/login?redirect=%2Fchats%2F42');
    const google = await screen.findByRole('link', { name: 'Entrar com Google' });
    expect(google.getAttribute('href')).toBe('/identity/sso/env/start?redirect=%2Fchats%2F42&locale=en');
    const other = screen.getByRole('link', { name: 'Entrar com Acme Keycloak' });
    expect(other.getAttribute('href')).toBe('/identity/sso/sso1/start?redirect=%2Fchats%2F42&locale=en');
  });

  it('says in the user’s language why a single sign-on was refused', async () => {
    installFakeServices();
    renderLogin('/auth/login?ssoError=SSO_NOT_PROVISIONED');
    expect((await screen.findByTestId('sso-error')).textContent).toMatch(/Peça ao administrador/);
  });

  it('ignores an unknown ssoError', () => {
    installFakeServices();
    renderLogin('/auth/login?ssoError=%3Cscript%3E');
    expect(screen.queryByTestId('sso-error')).toBeNull();
  });

  it('finishes a single sign-on with the code from the fragment, and drops it from the address', async () => {
    const services = installFakeServices();
    const router = renderLogin('/auth/login?redirect=%2Fchats#ssoCode=one-time-code&providerId=sso1');
    await waitFor(() =>
      expect(services.auth.signInWithIdp).toHaveBeenCalledWith(
        'one-time-code',
        'sso1',
        `${window.location.origin}/auth/login`,
      ),
    );
    expect(router.state.location.hash).toBe('');
    expect(router.state.location.search).toBe('?redirect=%2Fchats');
  });

  it('shows why the code could not be exchanged', async () => {
    const services = installFakeServices();
    services.auth.signInWithIdp.mockRejectedValue(
      new IdentityError('auth/invalid-idp-response', 'INVALID_IDP_RESPONSE'),
    );
    renderLogin('/auth/login#ssoCode=used&providerId=sso1');
    expect((await screen.findByTestId('login-error')).textContent).toMatch(/expirou ou já foi usado/);
  });

  it('validates before calling the identity provider', async () => {
    const services = installFakeServices();
    renderLogin();
    submit('not-an-email', '');
    expect(await screen.findByText('Informe um e-mail válido.')).toBeTruthy();
    expect(screen.getByText('Informe sua senha.')).toBeTruthy();
    expect(services.auth.signInWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it.each([
    [
      new IdentityError('auth/invalid-credential', 'INVALID_LOGIN_CREDENTIALS'),
      'E-mail ou senha incorretos.',
    ],
    [
      new IdentityError('auth/user-disabled', 'USER_DISABLED'),
      'Esta conta está desativada. Fale com o administrador do seu domínio.',
    ],
    [
      new IdentityError('auth/too-many-requests'),
      'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
    ],
    [
      new IdentityError('auth/network-request-failed'),
      'Não foi possível conectar ao servidor. Verifique sua conexão e tente novamente.',
    ],
  ])('shows %s inline, translated', async (error, text) => {
    const services = installFakeServices();
    services.auth.signInWithEmailAndPassword.mockRejectedValueOnce(error);
    renderLogin();
    submit('ana@acme.com', 'wrong');
    expect((await screen.findByTestId('login-error')).textContent).toBe(text);
    expect(services.auth.signInWithEmailAndPassword).toHaveBeenCalledWith('ana@acme.com', 'wrong');
  });

  it('explains when the identity has no account in the app', async () => {
    const services = installFakeServices();
    services.machine.settled.mockResolvedValueOnce({
      status: 'signed-out',
      error: new HttpError({ url: '/api/v1/user/x', method: 'GET', status: 404 }),
    } as never);
    renderLogin();
    submit('ana@acme.com', 'pw');
    expect((await screen.findByTestId('login-error')).textContent).toMatch(/Não encontramos uma conta ativa/);
  });

  it('signs in and starts listening before the identity call', async () => {
    const services = installFakeServices();
    services.auth.signInWithEmailAndPassword.mockImplementation(async () => {
      signInSession();
      return testIdentityUser;
    });
    renderLogin();
    submit('ana@acme.com', 'pw');
    await waitFor(() => expect(services.machine.settled).toHaveBeenCalled());
    expect(services.machine.start).toHaveBeenCalledWith({ emitInitial: false });
    expect(screen.queryByTestId('login-error')).toBeNull();
  });

  describe('editor handoff', () => {
    const query = '?provider=authkit&code_challenge=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG&state=st-1';

    it('asks a signed-out user to sign in for VS Code', () => {
      installFakeServices();
      renderLogin(`/auth/login${query}`);
      expect(screen.getByTestId('handoff-intro').textContent).toMatch(/VS Code/);
    });

    /** The button that opens the editor: a browser opens `vscode://` from a click only. */
    const openEditor = async () =>
      fireEvent.click(await screen.findByRole('button', { name: 'Abrir o VS Code' }));

    /** A signed-in user on the handoff login page, whose login_submit answers `answer`. */
    const signedInOnHandoff = (answer?: unknown, url = `/auth/login${query}`) => {
      const services = installFakeServices();
      services.auth.currentUser = testIdentityUser;
      services.codeAssistHttp.post.mockResolvedValueOnce(answer);
      signInSession();
      renderLogin(url);
      return services;
    };

    it('for a signed-in user: mints nothing and opens nothing until they click "Abrir o VS Code"', async () => {
      const services = signedInOnHandoff();
      expect(await screen.findByRole('heading', { name: 'Abrir o VS Code' })).toBeTruthy();
      await act(async () => {});
      expect(services.codeAssistHttp.post).not.toHaveBeenCalled();
      expect(openExternalUrl).not.toHaveBeenCalled();
    });

    it('after opening the deep link, says only that the sign-in goes on in VS Code', async () => {
      signedInOnHandoff({ auth_code: 'c-1' });
      await openEditor();
      expect(await screen.findByRole('heading', { name: 'Continue no VS Code' })).toBeTruthy();
      expect(screen.queryByText(/conectado/i)).toBeNull();
    });

    it('for a signed-in user: submits the login page as redirect_uri and opens the deep link', async () => {
      const services = signedInOnHandoff(
        {
          redirect_uri: 'http://localhost:3000/en/auth/login?code=the-code&state=st-1',
        },
        `/en/auth/login${query}`,
      );
      await openEditor();
      await waitFor(() => expect(openExternalUrl).toHaveBeenCalled());
      expect(services.codeAssistHttp.post).toHaveBeenCalledWith('/api/v1/user_management/login_submit', {
        query: {},
        body: {
          idToken: 'id-1',
          refreshToken: 'refresh-1',
          state: 'st-1',
          code_challenge: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
          redirect_uri: `${window.location.origin}/en/auth/login`,
          email: 'ana@acme.com',
        },
        credentials: 'include',
        onResponse: expect.any(Function),
      });
      expect(openExternalUrl).toHaveBeenCalledWith(
        'vscode://assistente.assistente-vscode/auth-callback?code=the-code&state=st-1',
      );
    });

    it('shows the error popup "Falha ao redirecionar para o VSCode" when it fails', async () => {
      signedInOnHandoff({ something: 'else' });
      await openEditor();
      await waitFor(() => expect(popup.store.getState().modelValue).toBe(true));
      expect(popup.store.getState()).toMatchObject({
        status: 'error',
        title: 'Falha ao redirecionar para o VSCode',
        details: 'Invalid response format: auth_code missing',
      });
      expect(typeof popup.store.getState().retry).toBe('function');
      await act(async () => {});
    });

    it('stays on the form while signed out, then offers to open the editor once signed in', async () => {
      const services = installFakeServices();
      services.codeAssistHttp.post.mockResolvedValueOnce({ auth_code: 'c-2' });
      renderLogin(`/auth/login${query}`);
      expect(services.codeAssistHttp.post).not.toHaveBeenCalled();
      services.auth.currentUser = testIdentityUser;
      act(() => signInSession());
      await openEditor();
      await waitFor(() => expect(services.codeAssistHttp.post).toHaveBeenCalledTimes(1));
      await waitFor(() =>
        expect(openExternalUrl).toHaveBeenLastCalledWith(
          'vscode://assistente.assistente-vscode/auth-callback?code=c-2&state=st-1',
        ),
      );
      expect(accountSession.getState().idToken).toBe('id-1');
    });
  });
});
