import type { McpServer, ToolInfo, ToolList, ToolPolicy } from '@assistente/contracts';
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
  defaultTools: ['builtin:fetch_page', 'mcp:s1:*'],
};

const server = (id: string, displayName: string, patch: Partial<McpServer> = {}): McpServer => ({
  id,
  domain: 'acme.com',
  displayName,
  url: `https://${id}.acme.com/mcp`,
  scope: 'domain',
  ownerId: null,
  visibleTo: { roles: [], departments: [] },
  auth: { kind: 'none' },
  connected: null,
  enabled: true,
  tools: [],
  toolsAt: '2026-11-29T10:00:00.000Z',
  lastError: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  ...patch,
});

const tool = (serverId: string, serverName: string, name: string): ToolInfo => ({
  ref: `mcp:${serverId}:${name}`,
  serverId,
  serverName,
  name,
  title: null,
  description: null,
  readOnly: false,
  decision: 'ask',
});

// The Admin's own private server (s9) is in both lists, and stays out of the default tools.
const servers = [server('s1', 'Chamados'), server('s9', 'Minhas notas', { scope: 'user', ownerId: 'u1' })];
const tools: ToolList = {
  tools: [tool('s1', 'Chamados', 'find_ticket'), tool('s9', 'Minhas notas', 'read_note')],
  builtins: [
    { ref: 'builtin:web_search', name: 'web_search', readOnly: true, decision: 'allow', unavailable: null },
    { ref: 'builtin:fetch_page', name: 'fetch_page', readOnly: true, decision: 'allow', unavailable: null },
  ],
  userServers: false,
};

function setup(put: (path: string, options?: FakeRequest) => Promise<unknown>, stored: ToolPolicy = policy) {
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  const get = vi.fn(async (path: string, _options?: FakeRequest) => {
    if (path === '/api/v1/agent/tools') return tools;
    if (path === '/api/v1/integration/mcp') return servers;
    return stored;
  });
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
      defaultTools: policy.defaultTools,
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

  it('shows the stored default tools checked, of the domain’s servers only', async () => {
    setup(async () => policy);
    const part = await screen.findByRole(
      'group',
      { name: 'Ferramentas da conversa sem santito' },
      { timeout: 10_000 },
    );
    const page = await within(part).findByRole('checkbox', { name: 'Leitura de página' });
    expect((page as HTMLInputElement).checked).toBe(true);
    expect(
      (within(part).getByRole('checkbox', { name: 'Pesquisa na web' }) as HTMLInputElement).checked,
    ).toBe(false);
    const chamados = within(part).getByRole('group', { name: 'Chamados' });
    expect(
      (
        within(chamados).getByRole('checkbox', {
          name: 'Todas as ferramentas de Chamados',
        }) as HTMLInputElement
      ).checked,
    ).toBe(true);
    // A person's own server is not the domain's: its tools are not offered here.
    expect(within(part).queryByRole('group', { name: 'Minhas notas' })).toBeNull();
    expect(within(part).queryByRole('checkbox', { name: 'read_note' })).toBeNull();
  });

  it('sends the default tools once one is toggled', async () => {
    const { put } = setup(async (_path, options) => ({ ...policy, ...(options?.body as object) }));
    const part = await screen.findByRole(
      'group',
      { name: 'Ferramentas da conversa sem santito' },
      { timeout: 10_000 },
    );
    fireEvent.click(await within(part).findByRole('checkbox', { name: 'Pesquisa na web' }));
    fireEvent.click(within(part).getByRole('checkbox', { name: 'Leitura de página' }));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[1]?.body).toEqual({
      rules: policy.rules,
      userServers: false,
      defaultTools: ['mcp:s1:*', 'builtin:web_search'],
    });
    expect(await screen.findByText('Política salva.')).toBeTruthy();
  });

  it('sends no default tools when they were not touched', async () => {
    const { put } = setup(async () => policy);
    const part = await screen.findByRole(
      'group',
      { name: 'Ferramentas da conversa sem santito' },
      { timeout: 10_000 },
    );
    await within(part).findByRole('checkbox', { name: 'Leitura de página' });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[1]?.body).toEqual({ rules: policy.rules, userServers: false });
  });

  it('names the default tool the server refused on that part', async () => {
    setup(async () => {
      throw new HttpError({
        url: '/api/v1/settings/tools',
        method: 'PUT',
        status: 400,
        data: {
          error: {
            status: 400,
            code: 'VALIDATION_FAILED',
            message: 'defaultTools: mcp:s9:* is not a tool of this organisation',
            details: [{ path: 'defaultTools', message: 'Unknown tool mcp:s9:*' }],
          },
        },
      });
    });
    const part = await screen.findByTestId('default-tools', {}, { timeout: 10_000 });
    fireEvent.click(await within(part).findByRole('checkbox', { name: 'Pesquisa na web' }));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    expect((await within(part).findByRole('alert')).textContent).toBe(
      'mcp:s9:* não é uma ferramenta do Assistente nem de um servidor MCP da organização. Desmarque-a e salve de novo.',
    );
    // Said once, on the part it concerns.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
