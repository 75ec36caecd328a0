import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IdentityError } from '../../../lib/identity/errors.ts';
import {
  installFakeServices,
  resetSession,
  signInSession,
  testIdentityUser,
} from '../../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import LoginPage from './LoginPage.tsx';
import ResetPasswordPage from './ResetPasswordPage.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

function renderReset(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/auth/reset-password', element: <ResetPasswordPage /> },
      { path: '/auth/login', element: <p>login page</p> },
      { path: '/', element: <p>home page</p> },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('ResetPasswordPage', () => {
  it('asks for the email and always answers the same', async () => {
    const services = installFakeServices();
    renderReset('/auth/reset-password');
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'ana@acme.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar link' }));
    expect((await screen.findByTestId('reset-sent')).textContent).toMatch(
      /Se existir uma conta para ana@acme.com/,
    );
    expect(services.identity.sendPasswordResetEmail).toHaveBeenCalledWith('ana@acme.com', 'pt-BR');
  });

  it('carries over the e-mail already typed on the login page', async () => {
    installFakeServices();
    const router = createMemoryRouter(
      [
        { path: '/auth/login', element: <LoginPage /> },
        { path: '/auth/reset-password', element: <ResetPasswordPage /> },
      ],
      { initialEntries: ['/auth/login'] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: ' ana@acme.com ' } });
    fireEvent.click(screen.getByRole('link', { name: 'Esqueci minha senha' }));
    expect(await screen.findByRole('button', { name: 'Enviar link' })).toBeTruthy();
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('ana@acme.com');
    // Never through the address: it would reach access logs.
    expect(router.state.location.search).toBe('');
  });

  it('explains an invalid or expired code and links to a new request', async () => {
    const services = installFakeServices();
    services.identity.verifyPasswordResetCode.mockRejectedValueOnce(
      new IdentityError('auth/expired-action-code'),
    );
    renderReset('/auth/reset-password?oobCode=old');
    expect((await screen.findByTestId('reset-invalid')).textContent).toMatch(/Este link expirou/);
    expect(screen.getByRole('link', { name: 'Solicitar um novo link' }).getAttribute('href')).toBe(
      '/auth/reset-password',
    );
  });

  it('checks the new password against the policy live and sets it', async () => {
    const services = installFakeServices();
    renderReset('/auth/reset-password?oobCode=good');
    expect(await screen.findByText('Nova senha para ana@acme.com.')).toBeTruthy();
    const policy = await screen.findByTestId('password-policy');
    await screen.findByText('Pelo menos 8 caracteres');
    // The example: long enough for the default policy, but the server refuses it as common.
    fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: '123456' } });
    const rule = [...policy.querySelectorAll('li')].find((li) =>
      li.textContent?.includes('Não é uma senha comum nem o seu e-mail'),
    );
    expect(rule?.hasAttribute('data-met')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    expect(await screen.findByText('A senha não atende aos requisitos.')).toBeTruthy();
    expect(services.identity.confirmPasswordReset).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: 'senha-longa-1' } });
    await waitFor(() => expect(policy.querySelectorAll('[data-met]').length).toBe(3));
    fireEvent.change(screen.getByLabelText('Confirme a nova senha'), { target: { value: 'senha-longa-2' } });
    expect(screen.getByText('As senhas não coincidem.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Confirme a nova senha'), { target: { value: 'senha-longa-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    expect(await screen.findByTestId('reset-done')).toBeTruthy();
    expect(services.identity.confirmPasswordReset).toHaveBeenCalledWith('good', 'senha-longa-1');
    expect(screen.getByRole('link', { name: 'Entrar' }).getAttribute('href')).toBe('/auth/login');
  });

  it('welcomes an invited person, and signs them in once their password is set', async () => {
    const services = installFakeServices();
    services.auth.signInWithEmailAndPassword.mockImplementation(async () => {
      signInSession();
      return testIdentityUser;
    });
    const router = renderReset('/auth/reset-password?oobCode=good&invite=1');
    expect(await screen.findByRole('heading', { name: 'Boas-vindas ao Assistente' })).toBeTruthy();
    expect(screen.queryByText(/nova senha/i)).toBeNull();
    fireEvent.change(screen.getByLabelText('Senha'), { target: { value: 'senha-longa-1' } });
    fireEvent.change(screen.getByLabelText('Confirme a senha'), { target: { value: 'senha-longa-1' } });
    const policy = await screen.findByTestId('password-policy');
    await waitFor(() => expect(policy.querySelectorAll('[data-met]').length).toBe(3));
    fireEvent.click(screen.getByRole('button', { name: 'Criar senha e entrar' }));
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(services.identity.confirmPasswordReset).toHaveBeenCalledWith('good', 'senha-longa-1');
    expect(services.auth.signInWithEmailAndPassword).toHaveBeenCalledWith('ana@acme.com', 'senha-longa-1');
    expect(router.state.location.pathname).toBe('/');
  });
});
