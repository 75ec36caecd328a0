import type { SsoProvider } from '@assistente/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { SsoSettings } from './SsoSettings.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const configured: SsoProvider = {
  id: 'sso1',
  displayName: 'Acme Entra',
  kind: 'oidc',
  issuer: 'https://login.microsoftonline.com/acme/v2.0',
  clientId: 'client',
  hasClientSecret: true,
  domains: ['acme.com'],
  autoProvision: true,
  defaultRole: 'Editor',
  enabled: true,
  source: 'configured',
  redirectUri: 'http://localhost:3000/identity/sso/sso1/callback',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const fromEnv: SsoProvider = {
  ...configured,
  id: 'env',
  displayName: 'Google',
  kind: 'google',
  issuer: 'https://accounts.google.com',
  source: 'instance',
  autoProvision: false,
  defaultRole: 'Viewer',
  redirectUri: 'http://localhost:3000/identity/sso/env/callback',
  createdAt: null,
  updatedAt: null,
};

function setup(providers: SsoProvider[]) {
  const services = installFakeServices();
  signInSession({ role: 'SuperAdmin' });
  const get = vi.fn(async (_path: string, _options?: FakeRequest) => providers);
  const put = vi.fn(async (_path: string, _options?: FakeRequest) => ({
    ...configured,
    displayName: 'Renamed',
  }));
  const post = vi.fn(async (_path: string, options?: FakeRequest) => ({
    ...configured,
    id: ((options?.body ?? {}) as { id: string }).id,
  }));
  Object.assign(services.accountHttp, { get, put, post });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithProviders(
    <QueryClientProvider client={client}>
      <SsoSettings />
    </QueryClientProvider>,
  );
  return { get, put, post };
}

describe('SsoSettings', { timeout: 30_000 }, () => {
  it('lists providers with the redirect URI to register; the env one is read-only', async () => {
    const { get } = setup([fromEnv, configured]);
    expect(await screen.findByText('Acme Entra')).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/api/v1/integration/sso', expect.anything());
    expect(screen.getByText('http://localhost:3000/identity/sso/sso1/callback')).toBeTruthy();
    expect(screen.getByText('Definido no servidor')).toBeTruthy();
    expect(screen.getByText(/cria contas como Editor/)).toBeTruthy();
    expect(screen.getByText(/só contas existentes/)).toBeTruthy();
    // Edit and delete only for the configured provider; a copy button on each card.
    expect(screen.getAllByRole('button', { name: 'Editar' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Copiar URI de redirecionamento' })).toHaveLength(2);
  });

  it('edits without resending the stored secret when its field stays empty', async () => {
    const { put } = setup([configured]);
    fireEvent.click(await screen.findByRole('button', { name: 'Editar' }));
    expect(await screen.findByText('Um segredo está guardado; deixe em branco para mantê-lo.')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /Nome no botão/ }), {
      target: { value: 'Renamed' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    const [path, options] = put.mock.calls[0] ?? [];
    expect(path).toBe('/api/v1/integration/sso/sso1');
    expect(options?.body).toMatchObject({ displayName: 'Renamed', domains: ['acme.com'] });
    expect(options?.body).not.toHaveProperty('clientSecret');
  });

  it('shows a new provider’s redirect URI before it is saved, and saves it under that id', async () => {
    const { post } = setup([]);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Adicionar provedor' }))[0] as HTMLElement);
    const shown = (await screen.findByTestId('sso-redirect-uri')).textContent ?? '';
    const match = new RegExp(`^${window.location.origin}/identity/sso/(sso[0-9a-f]{12})/callback$`).exec(
      shown,
    );
    expect(match, shown).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copiar URI de redirecionamento' })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /Nome no botão/ }), { target: { value: 'Entra' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Emissor/ }), {
      target: { value: 'https://login.example.com' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: /ID do cliente/ }), { target: { value: 'client' } });
    const domains = screen.getByPlaceholderText('empresa.com.br');
    await userEvent.type(domains, 'acme.com{enter}');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    const [, options] = post.mock.calls[0] ?? [];
    expect(options?.body).toMatchObject({ id: match?.[1] });
  });

  it('says when nothing is configured', async () => {
    setup([]);
    expect(await screen.findByText(/Nenhum provedor de login configurado/)).toBeTruthy();
  });
});
