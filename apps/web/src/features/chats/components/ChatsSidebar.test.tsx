import type { Chat } from '@assistente/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { virtualWindow } from '../hooks/useFixedVirtual.ts';
import { ChatsSidebar } from './ChatsSidebar.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

function chats(n: number, from = 0): Chat[] {
  return Array.from({ length: n }, (_, i) => ({
    chatId: `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`,
    title: `Conversa ${from + i}`,
    agentId: null,
    pinned: from + i < 2,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }));
}

describe('virtualWindow', () => {
  it('renders only the rows in view plus the overscan', () => {
    expect(virtualWindow(10_000, 40, 0, 600, 12)).toEqual({ start: 0, end: 28, totalHeight: 400_000 });
    expect(virtualWindow(10_000, 40, 200_000, 600, 12)).toEqual({
      start: 4988,
      end: 5028,
      totalHeight: 400_000,
    });
    expect(virtualWindow(10, 40, 0, 600, 12)).toEqual({ start: 0, end: 10, totalHeight: 400 });
  });
});

describe('ChatsSidebar', () => {
  it('keeps 10,000 chats cheap: only the visible rows are in the page', async () => {
    const services = installFakeServices();
    signInSession();
    const get = vi.fn(async (_path: string, options?: FakeRequest) => {
      options?.onResponse({
        headers: new Headers({ 'x-total-count': '10000', 'x-next-cursor': 'c2' }),
      });
      return chats(200);
    });
    Object.assign(services.chatsHttp, { get });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter(
      [
        {
          path: '/chats',
          element: (
            <QueryClientProvider client={client}>
              <ChatsSidebar />
            </QueryClientProvider>
          ),
        },
      ],
      { initialEntries: ['/chats'] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    expect(await screen.findByText('Conversa 0')).toBeTruthy();
    const rows = screen.getAllByTestId('chat-list-item');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(screen.getByTestId('chats-list').getAttribute('data-total')).toBe('10000');
    // Pinned chats are marked.
    expect(screen.getAllByLabelText('Fixada')).toHaveLength(2);
    expect(get).toHaveBeenCalledWith(
      '/api/v1/chats',
      expect.objectContaining({ query: expect.objectContaining({ limit: '50' }) }),
    );
  });
});
