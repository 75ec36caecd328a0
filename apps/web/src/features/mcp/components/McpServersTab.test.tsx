import type { McpServer } from '@assistente/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { McpServersTab } from './McpServersTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const working: McpServer = {
  id: 'mcp1',
  domain: 'acme.com',
  displayName: 'Tickets',
  url: 'https://tickets.acme.com/mcp',
  scope: 'domain',
  visibleTo: { roles: [], departments: [] },
  auth: { kind: 'header', name: 'X-Api-Key', hasValue: true },
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

function setup(servers: McpServer[]) {
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  const get = vi.fn(async (path: string, _options?: FakeRequest) =>
    path === '/api/v1/settings/tools' ? { domain: 'acme.com', rules: [], userServers: false } : servers,
  );
  const put = vi.fn(async (_path: string, _options?: FakeRequest) => working);
  const post = vi.fn(async (_path: string, _options?: FakeRequest) => working);
  Object.assign(services.accountHttp, { get, put, post });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithProviders(
    <QueryClientProvider client={client}>
      <McpServersTab />
    </QueryClientProvider>,
  );
  return { get, put, post };
}

describe('McpServersTab', { timeout: 30_000 }, () => {
  it('lists each server with its tools, or says in words why it has none', async () => {
    const { get } = setup([working, refused]);
    expect(await screen.findByText('Tickets', {}, { timeout: 10_000 })).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/api/v1/integration/mcp', expect.anything());
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
});
