import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IdentityError } from '../../../lib/identity/errors.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { PasswordTab } from './PasswordTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const fill = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

function setup() {
  const services = installFakeServices();
  signInSession();
  renderFeature(<PasswordTab />);
  return services;
}

describe('PasswordTab', { timeout: 20_000 }, () => {
  it('shows the policy live and refuses a new password that does not meet it', async () => {
    const services = setup();
    fill(/^Senha atual/, 'old-password');
    fill(/^Nova senha/, 'abc');
    const policy = await screen.findByTestId('password-policy');
    await waitFor(() => expect(policy.textContent).toContain('Pelo menos 8 caracteres'));
    expect(policy.querySelectorAll('[data-met]')).toHaveLength(0);
    fill(/^Nova senha/, 'lua-azul-9');
    await waitFor(() => expect(policy.querySelectorAll('[data-met]')).toHaveLength(3));
    fill(/^Nova senha/, 'abc');
    fill(/^Confirme a nova senha/, 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar senha' }));
    expect(await screen.findByText('A senha não atende aos requisitos.')).toBeTruthy();
    expect(services.auth.changePassword).not.toHaveBeenCalled();
  });

  it('requires the current password and a matching confirmation', async () => {
    const services = setup();
    fill(/^Nova senha/, 'lua-azul-9');
    fill(/^Confirme a nova senha/, 'lua-azul-8');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar senha' }));
    expect(await screen.findByText('Informe sua senha atual.')).toBeTruthy();
    expect(screen.getByText('As senhas não coincidem.')).toBeTruthy();
    expect(services.auth.changePassword).not.toHaveBeenCalled();
  });

  it('changes the password through the auth services', async () => {
    const services = setup();
    await waitFor(() => expect(services.identity.getPasswordPolicy).toHaveBeenCalled());
    fill(/^Senha atual/, 'old-password');
    fill(/^Nova senha/, 'lua-azul-9');
    fill(/^Confirme a nova senha/, 'lua-azul-9');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar senha' }));
    await waitFor(() =>
      expect(services.auth.changePassword).toHaveBeenCalledWith('old-password', 'lua-azul-9'),
    );
    await waitFor(() => expect((screen.getByLabelText(/^Senha atual/) as HTMLInputElement).value).toBe(''));
  });

  it('puts a wrong current password on its field', async () => {
    const services = setup();
    services.auth.changePassword.mockRejectedValueOnce(new IdentityError('auth/invalid-credential'));
    await waitFor(() => expect(services.identity.getPasswordPolicy).toHaveBeenCalled());
    fill(/^Senha atual/, 'wrong');
    fill(/^Nova senha/, 'lua-azul-9');
    fill(/^Confirme a nova senha/, 'lua-azul-9');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar senha' }));
    expect(await screen.findByText('A senha atual está incorreta.')).toBeTruthy();
  });
});
