import type { ModelInfo, ProviderConfig } from '@assistente/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../lib/http/errors.ts';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { ProvidersSettings } from './ProvidersSettings.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const stored: ProviderConfig = {
  id: 'p1',
  domain: 'acme.com',
  kind: 'openai',
  label: 'OpenAI da Acme',
  baseUrl: null,
  hasApiKey: true,
  apiKeyHint: '1234',
  models: [],
  enabled: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const instanceModel: ModelInfo = {
  id: 'openai:gpt-4.1-mini',
  name: 'gpt-4.1-mini',
  provider: 'openai',
  providerLabel: 'OpenAI',
  kind: 'openai',
  source: 'instance',
};

function setup(
  providers: ProviderConfig[] = [stored],
  answers: { models?: ModelInfo[]; test?: unknown; create?: () => never } = {},
) {
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  const http = services.chatsHttp;
  const get = vi.fn(async (path: string, _options?: FakeRequest) => {
    const data =
      path === '/api/v1/settings/providers'
        ? providers
        : path === '/api/v1/settings/ai'
          ? { domain: 'acme.com', defaultModel: null, effectiveDefaultModel: 'openai:gpt-4.1-mini' }
          : { models: answers.models ?? [instanceModel], defaultModel: null };
    return data;
  });
  const put = vi.fn(async (_path: string, _options?: FakeRequest) => ({ ...stored, label: 'Renamed' }));
  const post = vi.fn(async (path: string, _options?: FakeRequest) => {
    if (!path.endsWith('/test') && answers.create) answers.create();
    const data = path.endsWith('/test')
      ? (answers.test ?? { ok: true, models: ['gpt-4.1-mini', 'gpt-4.1'] })
      : {
          ...stored,
          id: 'p2',
          kind: 'ollama',
          label: 'Ollama',
          baseUrl: 'http://ollama.test',
          hasApiKey: false,
          apiKeyHint: null,
        };
    return data;
  });
  Object.assign(http, { get, put, post });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithProviders(
    <QueryClientProvider client={client}>
      <ProvidersSettings />
    </QueryClientProvider>,
  );
  return { get, put, post };
}

describe('ProvidersSettings', { timeout: 30_000 }, () => {
  it('lists providers showing only a hint of the key', async () => {
    setup();
    expect(await screen.findByText('OpenAI da Acme')).toBeTruthy();
    expect(screen.getByText(/chave configurada ••••1234/)).toBeTruthy();
    // The provider's name and the model, never its internal id.
    expect(
      await screen.findByText(/Sem escolha do domínio: a instância usa OpenAI · gpt-4.1-mini\./),
    ).toBeTruthy();
  });

  it('edits a provider without resending its key when the key field stays empty', async () => {
    const { put } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar' }));
    expect(await screen.findByText('Chave configurada ••••1234. Deixe vazio para mantê-la.')).toBeTruthy();
    const key = screen.getByTestId('provider-api-key') as HTMLInputElement;
    expect(key.value).toBe('');
    const label = screen.getByRole('textbox', { name: /Nome/ });
    await userEvent.clear(label);
    await userEvent.type(label, 'Renamed');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    const [path, options] = put.mock.calls[0] as [string, FakeRequest];
    expect(path).toBe('/api/v1/settings/providers/p1');
    expect(options.body).toMatchObject({ label: 'Renamed' });
    expect(options.body).not.toHaveProperty('apiKey');
  });

  it('asks for the base URL of an Ollama provider before adding it', async () => {
    const { post } = setup([]);
    expect(await screen.findByText(/Nenhum provedor configurado/)).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Adicionar provedor' })[0] as HTMLElement);
    const kind = await screen.findByRole('combobox', { name: 'Tipo' });
    fireEvent.click(kind);
    fireEvent.click(await screen.findByRole('option', { name: 'Ollama' }));
    await userEvent.type(screen.getByRole('textbox', { name: /Nome/ }), 'Ollama');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Informe a URL base.')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    await userEvent.type(screen.getByRole('textbox', { name: /URL base/ }), 'http://ollama.test');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    const [, options] = post.mock.calls[0] as [string, FakeRequest];
    expect(options.body).toMatchObject({ kind: 'ollama', label: 'Ollama', baseUrl: 'http://ollama.test' });
  });

  it('tests the connection and says how many models answered', async () => {
    const { post } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Testar conexão' }));
    expect(await screen.findByText('Conexão funcionando: 2 modelos disponíveis.')).toBeTruthy();
    expect(post).toHaveBeenCalledWith('/api/v1/settings/providers/p1/test', expect.anything());
  });

  it('says why a test failed in the reader’s language, never the server’s English line', async () => {
    setup([stored], {
      test: {
        ok: false,
        models: [],
        message: 'The provider failed (HTTP 500); try again later.',
        failure: { code: 'provider_failed', status: 500 },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Testar conexão' }));
    expect(await screen.findByText('O provedor falhou (HTTP 500). Tente de novo mais tarde.')).toBeTruthy();
    expect(screen.queryByText(/The provider failed/)).toBeNull();
  });

  it('names the host that cannot be found, not a private network', async () => {
    setup([], {
      create: () => {
        throw new HttpError({
          url: '/api/v1/settings/providers',
          method: 'POST',
          status: 400,
          data: {
            error: {
              status: 400,
              code: 'VALIDATION_FAILED',
              message: 'baseUrl: Could not resolve llm.nowhere.invalid',
              details: [
                {
                  path: 'baseUrl',
                  message: 'Could not resolve llm.nowhere.invalid',
                  code: 'url_blocked',
                  reason: 'unresolvable',
                  host: 'llm.nowhere.invalid',
                },
              ],
            },
          },
        });
      },
    });
    fireEvent.click((await screen.findAllByRole('button', { name: 'Adicionar provedor' }))[0] as HTMLElement);
    const kind = await screen.findByRole('combobox', { name: 'Tipo' });
    fireEvent.click(kind);
    fireEvent.click(await screen.findByRole('option', { name: 'Compatível com OpenAI' }));
    await userEvent.type(screen.getByRole('textbox', { name: /Nome/ }), 'LLM');
    await userEvent.type(screen.getByRole('textbox', { name: /URL base/ }), 'https://llm.nowhere.invalid/v1');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(
      await screen.findByText(
        'Não foi possível encontrar llm.nowhere.invalid: o nome não existe ou o DNS não respondeu. Confira o endereço.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/rede privada/)).toBeNull();
  });

  it('lists the instance’s providers and models, read-only, when the domain has none', async () => {
    setup([], {
      models: [
        {
          ...instanceModel,
          id: 'openai:llama3',
          name: 'llama3',
          kind: 'openai-compatible',
          providerLabel: 'OpenAI-compatible',
        },
        {
          ...instanceModel,
          id: 'openai:qwen3',
          name: 'qwen3',
          kind: 'openai-compatible',
          providerLabel: 'OpenAI-compatible',
        },
      ],
    });
    expect(await screen.findByText(/as conversas usam os provedores da instância/)).toBeTruthy();
    const row = await screen.findByTestId('instance-provider-row');
    expect(row.textContent).toContain('Compatível com OpenAI');
    expect(row.textContent).toContain('Modelos: llama3, qwen3');
    expect(row.textContent).not.toContain('OpenAI-compatible');
    expect(row.querySelector('button')).toBeNull();
  });
});
