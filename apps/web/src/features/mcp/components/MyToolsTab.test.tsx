import type { McpServer } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { MyToolsTab } from './MyToolsTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const base: McpServer = {
  id: 'mcp1',
  domain: 'acme.com',
  displayName: 'Drive',
  url: 'https://drive.acme.com/mcp',
  scope: 'domain',
  ownerId: null,
  visibleTo: { roles: [], departments: [] },
  auth: { kind: 'oauth', clientId: null, hasClientSecret: false, scopes: [] },
  connected: true,
  enabled: true,
  tools: [{ name: 'find_file', title: null, description: null, inputSchema: {}, readOnly: true }],
  toolsAt: '2026-11-29T10:00:00.000Z',
  lastError: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
};
const own: McpServer = {
  ...base,
  id: 'mcp2',
  displayName: 'Meu servidor',
  url: 'https://me.example/mcp',
  scope: 'user',
  ownerId: 'u1',
  auth: { kind: 'none' },
  connected: null,
};

function setup(servers: McpServer[], userServers: boolean) {
  const services = installFakeServices();
  signInSession({ role: 'Viewer' });
  const get = vi.fn(async (path: string, _options?: FakeRequest) =>
    path === '/api/v1/agent/tools' ? { tools: [], builtins: [], userServers } : servers,
  );
  const post = vi.fn(async (_path: string, _options?: FakeRequest) => own);
  Object.assign(services.accountHttp, { get, post });
  renderFeature(<MyToolsTab />);
  return { get, post };
}

describe('MyToolsTab', { timeout: 30_000 }, () => {
  it('offers connecting to the domain’s servers and managing one’s own, and adding when allowed', async () => {
    const { get } = setup([base, own], true);
    const [domain, mine] = await screen.findAllByTestId('mcp-server-row', {}, { timeout: 10_000 });
    expect(get).toHaveBeenCalledWith('/api/v1/integration/mcp', expect.anything());
    expect(within(domain as HTMLElement).getByRole('button', { name: 'Reconectar' })).toBeTruthy();
    expect(within(domain as HTMLElement).getByRole('button', { name: 'Desconectar' })).toBeTruthy();
    expect(within(domain as HTMLElement).queryByRole('button', { name: 'Editar' })).toBeNull();
    expect(within(mine as HTMLElement).getByRole('button', { name: 'Editar' })).toBeTruthy();
    expect(within(mine as HTMLElement).getByRole('button', { name: 'Excluir' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Adicionar servidor' })).toBeTruthy();
    expect(screen.queryByTestId('my-tools-not-allowed')).toBeNull();
  });

  it('adds a server of one’s own, without who else sees it', async () => {
    const { post } = setup([], true);
    expect(
      await screen.findByText('Nenhum servidor para conectar ainda.', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar servidor' }));
    fireEvent.change(await screen.findByPlaceholderText('GitHub'), { target: { value: 'Meu servidor' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Endereço/ }), {
      target: { value: 'https://me.example/mcp' },
    });
    expect(screen.queryByRole('combobox', { name: /Somente para estes papéis/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /Somente para estes departamentos/ })).toBeNull();
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar servidor' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]?.[1]?.body).toEqual({
      displayName: 'Meu servidor',
      url: 'https://me.example/mcp',
      scope: 'user',
      auth: { kind: 'none' },
      enabled: true,
    });
  });

  it('has no add button when the organisation does not allow own servers', async () => {
    setup([base], false);
    await screen.findByTestId('mcp-server-row', {}, { timeout: 10_000 });
    expect(await screen.findByTestId('my-tools-not-allowed')).toBeTruthy();
    expect(screen.getByText('Sua organização não permite adicionar servidores próprios.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Adicionar servidor' })).toBeNull();
  });
});
