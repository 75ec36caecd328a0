import type { McpServer } from '@assistente/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { popup } from '../../../ui/popup/popupStore.ts';
import { McpServersTab } from './McpServersTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => {
  resetSession();
  vi.restoreAllMocks();
});

const working: McpServer = {
  id: 'mcp1',
  domain: 'acme.com',
  displayName: 'Tickets',
  url: 'https://tickets.acme.com/mcp',
  scope: 'domain',
  ownerId: null,
  visibleTo: { roles: [], departments: [] },
  auth: { kind: 'header', name: 'X-Api-Key', hasValue: true },
  connected: null,
  enabled: true,
  tools: [
    { name: 'open_ticket', title: null, description: 'Opens a ticket', inputSchema: {}, readOnly: false },
    { name: 'find_ticket', title: null, description: null, inputSchema: {}, readOnly: true },
  ],
  toolsAt: '2026-11-29T10:00:00.000Z',
  lastError: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
};
const refused: McpServer = {
  ...working,
  id: 'mcp2',
  displayName: 'CRM',
  url: 'https://crm.acme.com/mcp',
  auth: { kind: 'none' },
  tools: [],
  toolsAt: null,
  lastError: { reason: 'unauthorized', message: 'HTTP 401' },
};

const oauth: McpServer = {
  ...working,
  id: 'mcp3',
  displayName: 'Drive',
  url: 'https://drive.acme.com/mcp',
  auth: { kind: 'oauth', clientId: 'assistente-app', hasClientSecret: true, scopes: ['files.read'] },
  connected: false,
  tools: [],
  toolsAt: null,
  lastError: { reason: 'not_connected', message: 'Nobody connected yet' },
};

const departments = [
  { _id: 'dep-1', displayName: 'Finanças', domain: 'acme.com', active: true },
  { _id: 'dep-2', displayName: 'Vendas', domain: 'acme.com', active: true },
];

function setup(
  servers: McpServer[],
  answers: { connect?: (path: string) => unknown; list?: () => McpServer[] } = {},
) {
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  const get = vi.fn(async (path: string, _options?: FakeRequest) => {
    if (path === '/api/v1/settings/tools')
      return { domain: 'acme.com', rules: [], userServers: false, webSearch: null, defaultTools: [] };
    if (path === '/api/v1/agent/tools') return { tools: [], builtins: [], userServers: false };
    if (path === '/api/v1/department') return departments;
    if (path.endsWith('/connect')) return answers.connect?.(path) ?? { authorizationUrl: null };
    return answers.list?.() ?? servers;
  });
  const put = vi.fn(async (_path: string, _options?: FakeRequest) => working);
  const post = vi.fn(async (_path: string, _options?: FakeRequest) => working);
  const del = vi.fn(async (_path: string, _options?: FakeRequest) => undefined);
  Object.assign(services.accountHttp, { get, put, post, delete: del });
  // Fresh for a while, as in the app: the policy's default tools read the same list, no second fetch.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  renderWithProviders(
    <QueryClientProvider client={client}>
      <McpServersTab />
    </QueryClientProvider>,
  );
  return { get, put, post, del };
}

const listCalls = (get: ReturnType<typeof setup>['get']) =>
  get.mock.calls.filter(([path]) => path === '/api/v1/integration/mcp').length;

describe('McpServersTab', { timeout: 30_000 }, () => {
  it('lists each server with its tools, or says in words why it has none', async () => {
    const mine: McpServer = { ...working, id: 'mcp9', displayName: 'Meu', scope: 'user', ownerId: 'u1' };
    const { get } = setup([working, refused, mine]);
    expect(await screen.findByText('Tickets', {}, { timeout: 10_000 })).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/api/v1/integration/mcp', expect.anything());
    // The Admin's own private server is under Settings → Tools, not among the domain's.
    expect(screen.getAllByTestId('mcp-server-row')).toHaveLength(2);
    expect(screen.queryByText('Meu')).toBeNull();
    const [first, second] = screen.getAllByTestId('mcp-server-row');
    expect(within(first as HTMLElement).getByText('2 ferramentas')).toBeTruthy();
    expect(within(first as HTMLElement).getByText('open_ticket')).toBeTruthy();
    expect(within(first as HTMLElement).getByText('Cabeçalho X-Api-Key')).toBeTruthy();
    expect(within(second as HTMLElement).getByTestId('mcp-server-error').textContent).toBe(
      'O servidor recusou as credenciais. Confira o nome e o valor do cabeçalho.',
    );
  });

  it('edits without resending the stored header value when its field stays empty', async () => {
    const { put } = setup([working]);
    await screen.findByText('Tickets', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Editar' }));
    expect(await screen.findByText('Deixe vazio para manter o valor guardado')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('GitHub'), { target: { value: 'Chamados' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    const [path, options] = put.mock.calls[0] ?? [];
    expect(path).toBe('/api/v1/integration/mcp/mcp1');
    expect(options?.body).toMatchObject({
      displayName: 'Chamados',
      auth: { kind: 'header', name: 'X-Api-Key' },
    });
    expect((options?.body as { auth?: object } | undefined)?.auth).not.toHaveProperty('value');
  });

  it('checks a new server before sending it: an address and a header value are needed', async () => {
    const { post } = setup([]);
    expect(await screen.findByText(/Nenhum servidor MCP ainda/, {}, { timeout: 10_000 })).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Adicionar servidor MCP' })[0] as HTMLElement);
    fireEvent.change(await screen.findByPlaceholderText('GitHub'), { target: { value: 'Tickets' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Endereço/ }), { target: { value: 'not a url' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Cabeçalho' }));
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar servidor' }));
    expect(await screen.findByText('Informe um endereço http ou https sem credenciais')).toBeTruthy();
    expect(screen.getByText('Informe o valor do cabeçalho')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(screen.getByRole('textbox', { name: /Endereço/ }), {
      target: { value: 'https://tickets.acme.com/mcp' },
    });
    fireEvent.change(screen.getByLabelText(/Valor do cabeçalho/), { target: { value: 'secret-value' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar servidor' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]?.[1]?.body).toMatchObject({
      displayName: 'Tickets',
      url: 'https://tickets.acme.com/mcp',
      auth: { kind: 'header', name: 'Authorization', value: 'secret-value' },
    });
  });

  it('adds an OAuth server with its client, scopes and departments', async () => {
    const { post } = setup([]);
    expect(await screen.findByText(/Nenhum servidor MCP ainda/, {}, { timeout: 10_000 })).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Adicionar servidor MCP' })[0] as HTMLElement);
    fireEvent.change(await screen.findByPlaceholderText('GitHub'), { target: { value: 'Drive' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Endereço/ }), {
      target: { value: 'https://drive.acme.com/mcp' },
    });
    fireEvent.click(screen.getByRole('radio', { name: 'OAuth' }));
    expect(
      screen.getByText('Opcional. Vazio: o servidor registra o Assistente por conta própria.'),
    ).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /ID do cliente/ }), {
      target: { value: ' assistente-app ' },
    });
    fireEvent.change(screen.getByLabelText(/Segredo do cliente/), { target: { value: 's3cret' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Escopos/ }), {
      target: { value: ' files.read  files.write ' },
    });
    fireEvent.click(screen.getByRole('combobox', { name: /Somente para estes departamentos/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Vendas' }));
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar servidor' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]?.[0]).toBe('/api/v1/integration/mcp');
    expect(post.mock.calls[0]?.[1]?.body).toEqual({
      displayName: 'Drive',
      url: 'https://drive.acme.com/mcp',
      scope: 'domain',
      auth: {
        kind: 'oauth',
        clientId: 'assistente-app',
        clientSecret: 's3cret',
        scopes: ['files.read', 'files.write'],
      },
      visibleTo: { roles: [], departments: ['dep-2'] },
      enabled: true,
    });
  });

  it('edits an OAuth server without resending the stored client secret when its field stays empty', async () => {
    const { put } = setup([{ ...oauth, visibleTo: { roles: [], departments: ['dep-1'] } }]);
    await screen.findByText('Drive', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Editar' }));
    expect(await screen.findByText('Deixe vazio para manter o segredo guardado')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /ID do cliente/ }) as HTMLInputElement).value).toBe(
      'assistente-app',
    );
    fireEvent.change(screen.getByRole('textbox', { name: /Escopos/ }), {
      target: { value: 'files.read offline_access' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    const [path, options] = put.mock.calls[0] ?? [];
    expect(path).toBe('/api/v1/integration/mcp/mcp3');
    expect(options?.body).toMatchObject({
      auth: { kind: 'oauth', clientId: 'assistente-app', scopes: ['files.read', 'offline_access'] },
      visibleTo: { roles: [], departments: ['dep-1'] },
    });
    expect((options?.body as { auth?: object } | undefined)?.auth).not.toHaveProperty('clientSecret');
    expect(options?.body).not.toHaveProperty('scope');
  });

  it('connects in a popup and lists the servers again when the popup says it connected', async () => {
    let connected = false;
    const { get } = setup([], {
      connect: () => ({ authorizationUrl: 'https://login.drive.example/authorize?state=abc' }),
      list: () => [{ ...oauth, connected, lastError: connected ? null : oauth.lastError }],
    });
    const opened = { closed: false } as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(opened);
    const row = await screen.findByTestId('mcp-server-row', {}, { timeout: 10_000 });
    expect(within(row).getByText('OAuth')).toBeTruthy();
    expect(within(row).getByTestId('mcp-server-connection').textContent).toBe('Não conectado');
    expect(within(row).getByTestId('mcp-server-error').textContent).toBe(
      'Conecte uma conta para listar as ferramentas deste servidor.',
    );
    expect(within(row).queryByRole('button', { name: 'Desconectar' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Conectar' }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith(
        'https://login.drive.example/authorize?state=abc',
        'assistente-mcp-connect',
        'popup,width=520,height=680',
      ),
    );
    expect(get).toHaveBeenCalledWith('/api/v1/integration/mcp/mcp3/connect', expect.anything());
    const before = listCalls(get);
    // Another site's message is not the popup's word.
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: 'https://evil.example',
          data: { type: 'assistente:mcp-connected', status: 'connected' },
        }),
      );
    });
    expect(listCalls(get)).toBe(before);
    connected = true;
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'assistente:mcp-connected', status: 'connected' },
        }),
      );
    });
    await waitFor(() => expect(listCalls(get)).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getByTestId('mcp-server-connection').textContent).toBe('Conectado'));
    expect(screen.getByRole('button', { name: 'Reconectar' })).toBeTruthy();
    await waitFor(() =>
      expect(popup.store.getState()).toMatchObject({ status: 'success', title: 'Conectado a Drive' }),
    );
  });

  it('says why a connection was not made', async () => {
    const { get } = setup([oauth], {
      connect: () => ({ authorizationUrl: 'https://login.drive.example/authorize' }),
    });
    vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    fireEvent.click(await screen.findByRole('button', { name: 'Conectar' }, { timeout: 10_000 }));
    await waitFor(() => expect(window.open).toHaveBeenCalled());
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'assistente:mcp-connected', status: 'denied' },
        }),
      );
    });
    await waitFor(() =>
      expect(popup.store.getState()).toMatchObject({
        status: 'warning',
        title: 'O acesso a Drive não foi concedido',
      }),
    );
    expect(get.mock.calls.filter(([path]) => path.endsWith('/connect'))).toHaveLength(1);
  });

  it('opens no popup when the account is connected already: it lists the servers again', async () => {
    const { get } = setup([oauth]);
    const open = vi.spyOn(window, 'open');
    fireEvent.click(await screen.findByRole('button', { name: 'Conectar' }, { timeout: 10_000 }));
    await waitFor(() => expect(listCalls(get)).toBe(2));
    expect(open).not.toHaveBeenCalled();
    await waitFor(() =>
      expect(popup.store.getState()).toMatchObject({ status: 'success', title: 'Conectado a Drive' }),
    );
  });

  it('lists the servers again when the popup closes without a word', async () => {
    const { get } = setup([oauth], {
      connect: () => ({ authorizationUrl: 'https://login.drive.example/authorize' }),
    });
    const opened = { closed: false };
    vi.spyOn(window, 'open').mockReturnValue(opened as Window);
    fireEvent.click(await screen.findByRole('button', { name: 'Conectar' }, { timeout: 10_000 }));
    await waitFor(() => expect(window.open).toHaveBeenCalled());
    expect(listCalls(get)).toBe(1);
    opened.closed = true;
    await waitFor(() => expect(listCalls(get)).toBe(2), { timeout: 3_000 });
  });

  it('hears the outcome on the channel when the popup lost its opener on the sign-in page', async () => {
    let connected = false;
    const { get } = setup([], {
      connect: () => ({ authorizationUrl: 'https://login.drive.example/authorize' }),
      list: () => [{ ...oauth, connected }],
    });
    // Cut off by the sign-in page's opener policy: it looks closed at once.
    vi.spyOn(window, 'open').mockReturnValue({ closed: true } as Window);
    fireEvent.click(await screen.findByRole('button', { name: 'Conectar' }, { timeout: 10_000 }));
    await waitFor(() => expect(listCalls(get)).toBe(2), { timeout: 3_000 });
    expect(screen.getByTestId('mcp-server-connection').textContent).toBe('Não conectado');
    const page = new BroadcastChannel('assistente:mcp-connect');
    const answered = new Promise<unknown>((resolve) => {
      page.onmessage = (event: MessageEvent) => resolve(event.data);
    });
    try {
      connected = true;
      page.postMessage({ type: 'assistente:mcp-connected', status: 'connected' });
      expect(await answered).toEqual({ type: 'assistente:mcp-connected-heard' });
      await waitFor(() => expect(screen.getByTestId('mcp-server-connection').textContent).toBe('Conectado'));
      await waitFor(() =>
        expect(popup.store.getState()).toMatchObject({ status: 'success', title: 'Conectado a Drive' }),
      );
    } finally {
      page.close();
    }
  });

  it('forgets the connection after confirming', async () => {
    const { del } = setup([{ ...oauth, connected: true, lastError: null }]);
    fireEvent.click(await screen.findByRole('button', { name: 'Desconectar' }, { timeout: 10_000 }));
    expect(await screen.findByText(/Desconectar sua conta de Drive\?/)).toBeTruthy();
    expect(del).not.toHaveBeenCalled();
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Desconectar' }));
    await waitFor(() => expect(del).toHaveBeenCalled());
    expect(del.mock.calls[0]?.[0]).toBe('/api/v1/integration/mcp/mcp3/connect');
  });
});
