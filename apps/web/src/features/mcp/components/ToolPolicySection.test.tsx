import type { ToolPolicy } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../lib/http/errors.ts';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { ToolPolicySection } from './ToolPolicySection.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const policy: ToolPolicy = {
  domain: 'acme.com',
  rules: [
    { match: 'mcp:*', decision: 'ask' },
    { match: 'mcp:s1:delete_*', decision: 'deny' },
  ],
  userServers: false,
  webSearch: null,
};

function setup(put: (path: string, options?: FakeRequest) => Promise<unknown>, stored: ToolPolicy = policy) {
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  const get = vi.fn(async (_path: string, _options?: FakeRequest) => stored);
  const putMock = vi.fn(put);
  Object.assign(services.accountHttp, { get, put: putMock });
  renderFeature(<ToolPolicySection />);
  return { get, put: putMock };
}

describe('ToolPolicySection', { timeout: 30_000 }, () => {
  it('edits the rules and the switch, and saves them without touching web search', async () => {
    const { get, put } = setup(async (_path, options) => ({
      domain: 'acme.com',
      webSearch: null,
      ...(options?.body as object),
    }));
    const first = await screen.findByRole('textbox', { name: 'Regra 1: Ferramentas' }, { timeout: 10_000 });
    expect(get).toHaveBeenCalledWith('/api/v1/settings/tools', expect.anything());
    expect((first as HTMLInputElement).value).toBe('mcp:*');
    // The first rule now allows the read-only finder, the second is removed, a third is added.
    fireEvent.change(first, { target: { value: 'mcp:s1:find_*' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Regra 1: Decisão' }), {
      target: { value: 'allow' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remover regra 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar regra' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Regra 2: Ferramentas' }), {
      target: { value: 'builtin:web_search' },
    });
    fireEvent.click(
      screen.getByRole('checkbox', { name: 'Pessoas podem adicionar seus próprios servidores MCP' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[0]).toBe('/api/v1/settings/tools');
    expect(put.mock.calls[0]?.[1]?.body).toEqual({
      rules: [
        { match: 'mcp:s1:find_*', decision: 'allow' },
        { match: 'builtin:web_search', decision: 'ask' },
      ],
      userServers: true,
    });
    expect(await screen.findByText('Política salva.')).toBeTruthy();
  });

  it('does not send a rule that matches no tool reference', async () => {
    const { put } = setup(async () => policy);
    const first = await screen.findByRole('textbox', { name: 'Regra 1: Ferramentas' }, { timeout: 10_000 });
    fireEvent.change(first, { target: { value: 'delete everything' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    expect(
      await screen.findByText(
        'Use uma referência como mcp:{servidor}:{ferramenta}, com * para qualquer parte.',
      ),
    ).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
  });

  it('shows why the server refused the policy', async () => {
    setup(async () => {
      throw new HttpError({
        url: '/api/v1/settings/tools',
        method: 'PUT',
        status: 403,
        data: { error: { code: 'FORBIDDEN', message: 'Forbidden', status: 403 } },
      });
    });
    await screen.findByRole('textbox', { name: 'Regra 1: Ferramentas' }, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Você não tem permissão para fazer isso.');
  });

  it('sets up SearXNG: its address is required, and saving sends it', async () => {
    const { put } = setup(async () => ({
      ...policy,
      webSearch: { provider: 'searxng', url: 'https://searx.example.com', hasApiKey: false },
    }));
    const search = await screen.findByRole('group', { name: 'Pesquisa na web' }, { timeout: 10_000 });
    expect(
      within(search).getByText(
        'Santitos com a ferramenta Pesquisa na web pesquisam aqui; os resultados são citados nas respostas.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(search).getByRole('radio', { name: 'SearXNG' }));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    expect(await screen.findByText('Informe um endereço http ou https sem credenciais')).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
    fireEvent.change(within(search).getByRole('textbox', { name: /Endereço do SearXNG/ }), {
      target: { value: 'https://searx.example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[1]?.body).toEqual({
      rules: policy.rules,
      userServers: false,
      webSearch: { provider: 'searxng', url: 'https://searx.example.com' },
    });
    expect(await screen.findByText('Política salva.')).toBeTruthy();
  });

  it('keeps a stored Brave key: it shows as stored, and a save without typing sends none', async () => {
    const brave: ToolPolicy = {
      ...policy,
      webSearch: { provider: 'brave', url: null, hasApiKey: true },
    };
    const { put } = setup(async () => brave, brave);
    const search = await screen.findByRole('group', { name: 'Pesquisa na web' }, { timeout: 10_000 });
    expect((within(search).getByRole('radio', { name: 'Brave' }) as HTMLInputElement).checked).toBe(true);
    const key = within(search).getByLabelText('Chave de API') as HTMLInputElement;
    expect(key.value).toBe('');
    expect(key.placeholder).toBe('Chave guardada');
    expect(
      within(search).getByText(
        'Há uma chave guardada: deixe vazio para mantê-la ou digite outra para trocá-la',
      ),
    ).toBeTruthy();
    // The proxy address waits behind "Advanced".
    expect(within(search).queryByRole('textbox', { name: /Endereço de um proxy/ })).toBeNull();
    fireEvent.click(within(search).getByRole('button', { name: 'Avançado' }));
    fireEvent.change(within(search).getByRole('textbox', { name: /Endereço de um proxy/ }), {
      target: { value: 'https://proxy.example.com/brave' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[1]?.body).toEqual({
      rules: policy.rules,
      userServers: false,
      webSearch: { provider: 'brave', url: 'https://proxy.example.com/brave' },
    });
  });

  it('sends a typed Tavily key once, then shows it as stored', async () => {
    const { put } = setup(async () => ({
      ...policy,
      webSearch: { provider: 'tavily', url: null, hasApiKey: true },
    }));
    const search = await screen.findByRole('group', { name: 'Pesquisa na web' }, { timeout: 10_000 });
    fireEvent.click(within(search).getByRole('radio', { name: 'Tavily' }));
    const key = within(search).getByLabelText(/Chave de API/) as HTMLInputElement;
    expect(key.placeholder).toBe('');
    fireEvent.change(key, { target: { value: ' tvly-secret ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[1]?.body).toMatchObject({
      webSearch: { provider: 'tavily', apiKey: 'tvly-secret' },
    });
    expect(await screen.findByText('Política salva.')).toBeTruthy();
    expect(key.value).toBe('');
    expect(key.placeholder).toBe('Chave guardada');
  });

  it('asks for a key when the provider changes, the stored one being Brave’s', async () => {
    const brave: ToolPolicy = {
      ...policy,
      webSearch: { provider: 'brave', url: null, hasApiKey: true },
    };
    const { put } = setup(async () => brave, brave);
    const search = await screen.findByRole('group', { name: 'Pesquisa na web' }, { timeout: 10_000 });
    fireEvent.click(within(search).getByRole('radio', { name: 'Tavily' }));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    expect(await within(search).findByText('Informe a chave de API do Tavily')).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal of the address on its field', async () => {
    setup(async () => {
      throw new HttpError({
        url: '/api/v1/settings/tools',
        method: 'PUT',
        status: 400,
        data: {
          error: {
            status: 400,
            code: 'VALIDATION_FAILED',
            message: 'webSearch.url: 10.0.0.5 is a private address',
            details: [
              {
                path: 'webSearch.url',
                message: '10.0.0.5 is a private address',
                code: 'url_blocked',
                reason: 'private',
                host: '10.0.0.5',
                address: '10.0.0.5',
              },
            ],
          },
        },
      });
    });
    const search = await screen.findByRole('group', { name: 'Pesquisa na web' }, { timeout: 10_000 });
    fireEvent.click(within(search).getByRole('radio', { name: 'SearXNG' }));
    const url = within(search).getByRole('textbox', { name: /Endereço do SearXNG/ });
    fireEvent.change(url, { target: { value: 'http://10.0.0.5:8080' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    expect(
      await within(search).findByText(
        '10.0.0.5 é um endereço de rede privada. Use um endereço público ou peça ao operador para incluí-lo em PROVIDER_URL_ALLOWLIST.',
      ),
    ).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
