import type { Chat } from '@assistente/contracts';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLanguage, translator } from '../../lib/i18n/index.ts';
import type { FakeRequest } from '../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../test/fakeServices.ts';
import { loadTestTexts } from '../../test/render.tsx';
import { renderFeature } from '../../test/renderFeature.tsx';
import HomePage from './HomePage.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(async () => {
  resetSession();
  await setLanguage('pt-BR');
});

function recentChat(minutesAgo: number): Chat {
  const updatedAt = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  return {
    chatId: '00000000-0000-4000-8000-000000000001',
    title: 'Planejamento',
    agentId: null,
    pinned: false,
    createdAt: updatedAt,
    updatedAt,
  };
}

describe('HomePage', () => {
  it('shows the recent chats’ times in the language just chosen', async () => {
    const services = installFakeServices();
    signInSession();
    const get = vi.fn(async (_path: string, _options?: FakeRequest) => {
      const items = [recentChat(6)];
      return items;
    });
    Object.assign(services.chatsHttp, { get });
    renderFeature(<HomePage />);
    const recent = await screen.findByTestId('recent-chats');
    expect(recent.textContent).toContain('há 6 minutos');

    // The translator switches first; `<html lang>` follows only after the page has re-rendered.
    await act(() => translator.changeLanguage('en'));
    expect(document.documentElement.lang).toBe('pt-BR');
    expect(recent.textContent).toContain('6 minutes ago');
    expect(recent.textContent).not.toContain('há 6 minutos');
  });
});
