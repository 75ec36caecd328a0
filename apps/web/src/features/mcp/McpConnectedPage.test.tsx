import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../test/render.tsx';
import McpConnectedPage from './McpConnectedPage.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(window, 'opener', { value: null, configurable: true, writable: true });
});

function open(search: string, opener: { postMessage: ReturnType<typeof vi.fn> } | null) {
  Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true });
  const close = vi.spyOn(window, 'close').mockImplementation(() => {});
  renderWithProviders(
    <MemoryRouter initialEntries={[`/integration/mcp-connected${search}`]}>
      <McpConnectedPage />
    </MemoryRouter>,
  );
  return { close };
}

describe('McpConnectedPage', { timeout: 30_000 }, () => {
  it('tells its opener, on this origin only, that the account is connected, then closes', async () => {
    const opener = { postMessage: vi.fn() };
    const { close } = open('?status=connected', opener);
    expect(screen.getByTestId('mcp-connected-status').textContent).toBe(
      'Conectado. Você pode fechar esta janela.',
    );
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: 'assistente:mcp-connected', status: 'connected' },
      window.location.origin,
    );
    expect(close).not.toHaveBeenCalled();
    await waitFor(() => expect(close).toHaveBeenCalled(), { timeout: 3_000 });
  });

  it('takes an unknown status for a failure', () => {
    const opener = { postMessage: vi.fn() };
    open('?status=<script>', opener);
    expect(screen.getByTestId('mcp-connected-status').textContent).toBe(
      'Não foi possível conectar. Feche esta janela e tente de novo.',
    );
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: 'assistente:mcp-connected', status: 'failed' },
      window.location.origin,
    );
  });

  it('opened on its own, says how it went and stays open', async () => {
    const { close } = open('?status=expired', null);
    expect(screen.getByTestId('mcp-connected-status').textContent).toBe(
      'O login demorou demais. Feche esta janela e conecte de novo.',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(close).not.toHaveBeenCalled();
  });

  it('without an opener, says it on the channel and closes once the app heard it', async () => {
    const app = new BroadcastChannel('assistente:mcp-connect');
    const heard = new Promise<unknown>((resolve) => {
      app.onmessage = (event: MessageEvent) => {
        resolve(event.data);
        app.postMessage({ type: 'assistente:mcp-connected-heard' });
      };
    });
    try {
      const { close } = open('?status=connected', null);
      expect(await heard).toEqual({ type: 'assistente:mcp-connected', status: 'connected' });
      await waitFor(() => expect(close).toHaveBeenCalled(), { timeout: 3_000 });
    } finally {
      app.close();
    }
  });
});
