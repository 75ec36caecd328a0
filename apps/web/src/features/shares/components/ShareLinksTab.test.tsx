import type { Share } from '@assistente/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { ShareLinksTab } from './ShareLinksTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 5000 };

const share = (n: number, patch: Partial<Share> = {}): Share => ({
  shareId: `share${String(n).padStart(17, '0')}`,
  url: `http://localhost:3000/s/share${String(n).padStart(17, '0')}`,
  chatId: `chat-${n}`,
  title: `Conversa ${n}`,
  audience: 'domain',
  createdAt: '2026-03-01T12:00:00.000Z',
  expiresAt: null,
  views: n,
  messageCount: 2,
  ...patch,
});

/** The tab over fake routes: pages of links by cursor, and the links revoked. */
function setup(pages: Record<string, { items: Share[]; next?: string }>) {
  const revoked: string[] = [];
  const services = installFakeServices();
  signInSession();
  const routes: Parameters<typeof routeHttp>[1] = {
    'GET /api/v1/shares': ({ query }) => {
      const page = pages[query.cursor ?? ''] ?? { items: [] };
      const total = Object.values(pages).reduce((n, p) => n + p.items.length, 0);
      return { body: page.items, headers: { 'X-Total-Count': String(total), 'X-Next-Cursor': page.next } };
    },
  };
  for (const p of Object.values(pages))
    for (const s of p.items)
      routes[`DELETE /api/v1/shares/${s.shareId}`] = () => {
        revoked.push(s.shareId);
        return { body: undefined };
      };
  routeHttp(services.chatsHttp, routes);
  renderFeature(<ShareLinksTab />);
  return { revoked };
}

describe('the shared links tab', { timeout: 20_000 }, () => {
  it('lists the person’s links with their audience, expiry and views, page by page', async () => {
    setup({
      '': {
        items: [share(2, { audience: 'public', expiresAt: '2020-01-01T00:00:00.000Z' }), share(1)],
        next: 'c2',
      },
      c2: { items: [share(0, { audience: 'department' })] },
    });
    const user = userEvent.setup();
    expect((await screen.findByRole('link', { name: 'Conversa 2' }, WAIT)).getAttribute('href')).toBe(
      'http://localhost:3000/s/share00000000000000002',
    );
    expect(screen.getByText('Qualquer pessoa com o link')).toBeTruthy();
    expect(screen.getByText('Expirado')).toBeTruthy();
    expect(screen.getAllByText('Sem validade').length).toBeGreaterThan(0);
    expect(screen.getAllByTestId('share-views').map((v) => v.textContent)).toEqual(['2', '1']);
    await user.click(screen.getByRole('button', { name: /Carregar mais/i }));
    expect(await screen.findByRole('link', { name: 'Conversa 0' }, WAIT)).toBeTruthy();
    expect(screen.getByText('Meu departamento')).toBeTruthy();
  });

  it('revokes a link after a confirmation', async () => {
    const { revoked } = setup({ '': { items: [share(1)] } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ações do link Conversa 1' }, WAIT));
    await user.click(await screen.findByRole('menuitem', { name: 'Revogar' }, WAIT));
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    expect(dialog.textContent).toMatch(/deixará de funcionar para todos/);
    expect(revoked).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Revogar' }));
    await waitFor(() => expect(revoked).toEqual(['share00000000000000001']), WAIT);
  });

  it('says so when there is no link yet', async () => {
    setup({ '': { items: [] } });
    expect(await screen.findByText('Nenhum link compartilhado', {}, WAIT)).toBeTruthy();
    expect(screen.getByText(/use “Compartilhar” para criar um link/)).toBeTruthy();
  });
});
