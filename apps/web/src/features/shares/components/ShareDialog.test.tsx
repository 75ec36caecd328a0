import type { Share, ShareCreate } from '@assistente/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { ShareDialog } from './ShareDialog.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 5000 };
const CHAT = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff';
const LEAF = '7f9619ff-8b86-4d01-b42d-00cf4fc964ff';

const made = (body: ShareCreate): Share => ({
  shareId: 'AbCdEfGhIjKlMnOpQrStUv',
  url: 'http://localhost:3000/s/AbCdEfGhIjKlMnOpQrStUv',
  chatId: CHAT,
  title: 'Plano',
  audience: body.audience,
  createdAt: '2026-03-01T12:00:00.000Z',
  expiresAt: body.expiresAt ?? null,
  views: 0,
  messageCount: 2,
});

/** The dialog over fake routes: whether public links are allowed, and what the POST was sent. */
function setup(publicLinks: boolean, answer?: { status: number; code: string; message: string }) {
  const sent: ShareCreate[] = [];
  const services = installFakeServices();
  signInSession();
  routeHttp(services.chatsHttp, {
    'GET /api/v1/shares/options': () => ({ body: { publicLinks } }),
    [`POST /api/v1/chats/${CHAT}/shares`]: ({ body }) => {
      sent.push(body as ShareCreate);
      return answer ?? { body: made(body as ShareCreate) };
    },
  });
  renderFeature(<ShareDialog opened onClose={() => {}} chatId={CHAT} leaf={LEAF} />);
  return { sent };
}

describe('the share dialog', { timeout: 20_000 }, () => {
  it('shares the branch on screen with the organisation, then shows the link to copy and that later messages are not in it', async () => {
    const { sent } = setup(false);
    const user = userEvent.setup();
    expect(
      (await screen.findByRole<HTMLInputElement>('radio', { name: /Minha organização/ }, WAIT)).checked,
    ).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Criar link' }));
    await waitFor(() => expect(sent).toEqual([{ audience: 'domain', leaf: LEAF }]), WAIT);
    expect(
      await screen.findByDisplayValue('http://localhost:3000/s/AbCdEfGhIjKlMnOpQrStUv', {}, WAIT),
    ).toBeTruthy();
    const copy = screen.getByRole('button', { name: 'Copiar link' });
    // Keyboard reachable: a real button, focused when the link is shown.
    expect(copy.tagName).toBe('BUTTON');
    await waitFor(() => expect(document.activeElement).toBe(copy), WAIT);
    expect(screen.getAllByText(/mensagens enviadas depois não aparecem/).length).toBeGreaterThan(0);
  });

  it('offers public links only where the organisation allows them, with a hint why not', async () => {
    setup(false);
    const publicChoice = await screen.findByRole<HTMLInputElement>(
      'radio',
      { name: /Qualquer pessoa com o link/ },
      WAIT,
    );
    await waitFor(() => expect(publicChoice.disabled).toBe(true), WAIT);
    expect(screen.getByText(/Links públicos não estão liberados/)).toBeTruthy();
  });

  it('sends the audience and an expiry in the future', async () => {
    const { sent } = setup(true);
    const user = userEvent.setup();
    const publicChoice = await screen.findByRole<HTMLInputElement>(
      'radio',
      { name: /Qualquer pessoa com o link/ },
      WAIT,
    );
    await waitFor(() => expect(publicChoice.disabled).toBe(false), WAIT);
    await user.click(publicChoice);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Validade' }), '7');
    await user.click(screen.getByRole('button', { name: 'Criar link' }));
    await waitFor(() => expect(sent).toHaveLength(1), WAIT);
    expect(sent[0]!.audience).toBe('public');
    const days = (new Date(sent[0]!.expiresAt!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    expect(await screen.findByText(/Qualquer pessoa com este link/, {}, WAIT)).toBeTruthy();
  });

  it('says why when there is nothing to share yet', async () => {
    setup(false, { status: 409, code: 'CONFLICT', message: 'no' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Criar link' }, WAIT));
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toMatch(
      /ainda não tem mensagens concluídas/,
    );
  });
});
