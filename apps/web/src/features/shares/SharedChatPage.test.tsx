import type { SharedChat } from '@assistente/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../test/fakeServices.ts';
import { loadTestTexts } from '../../test/render.tsx';
import { renderFeature } from '../../test/renderFeature.tsx';
import { useChatsList } from '../chats/index.ts';
import SharedChatPage from './SharedChatPage.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 5000 };
const ID = 'AbCdEfGhIjKlMnOpQrStUv';

const shared: SharedChat = {
  shareId: ID,
  title: 'Plano de vendas',
  audience: 'domain',
  createdAt: '2026-03-01T12:00:00.000Z',
  expiresAt: null,
  sharedBy: 'Olga Dona',
  santitoName: null,
  own: false,
  messages: [
    {
      messageId: 'm1',
      chatId: 'c1',
      parentId: null,
      role: 'user',
      content: 'Qual é a meta?',
      status: 'complete',
      createdAt: '2026-03-01T11:00:00.000Z',
      attachments: [
        {
          attachmentId: 'f1',
          chatId: 'c1',
          name: 'metas.txt',
          contentType: 'text/plain',
          size: 10,
          createdAt: '2026-03-01T11:00:00.000Z',
          url: `/api/v1/shares/${ID}/files/f1`,
        },
      ],
    },
    {
      messageId: 'm2',
      chatId: 'c1',
      parentId: 'm1',
      role: 'assistant',
      content: 'Crescer **10%**.',
      status: 'complete',
      createdAt: '2026-03-01T11:00:01.000Z',
    },
  ],
};

/** Stands for the chats sidebar: it keeps the chat list's query alive. */
function Sidebar() {
  useChatsList('');
  return null;
}

function setup(answer: 'ok' | 404, signedIn: boolean) {
  const copied: string[] = [];
  /** The sidebar's chat list, asked for again once a copy is made. */
  const listed: string[] = [];
  const services = installFakeServices();
  if (signedIn) signInSession();
  routeHttp(services.chatsHttp, {
    [`GET /api/v1/shares/${ID}`]: () =>
      answer === 'ok'
        ? { body: shared }
        : { status: 404, code: 'NOT_FOUND', message: 'Share link not found' },
    [`POST /api/v1/shares/${ID}/copy`]: () => {
      copied.push(ID);
      return { body: { chatId: 'new-chat' } };
    },
    'GET /api/v1/chats': () => {
      listed.push('GET');
      return { body: [] };
    },
  });
  renderFeature(
    <>
      <Routes>
        <Route path="/s/:shareId" element={<SharedChatPage />} />
        <Route path="/chats/:chatId" element={<p>chat page</p>} />
      </Routes>
      {signedIn ? <Sidebar /> : null}
    </>,
    { path: `/s/${ID}` },
  );
  return { copied, listed };
}

describe('the shared chat page', { timeout: 20_000 }, () => {
  it('shows the snapshot read-only, and a signed-in reader continues it as a copy', async () => {
    const { copied, listed } = setup('ok', true);
    const user = userEvent.setup();
    expect((await screen.findByTestId('shared-title', {}, WAIT)).textContent).toBe('Plano de vendas');
    expect(screen.getByText(/Compartilhada por Olga Dona/)).toBeTruthy();
    expect(screen.getByText('Qual é a meta?')).toBeTruthy();
    expect(screen.getByText('metas.txt')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Gerar outra resposta' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continuar como cópia' }));
    expect(await screen.findByText('chat page', {}, WAIT)).toBeTruthy();
    expect(copied).toEqual([ID]);
    // The copy is listed in the sidebar at once: its chat list was asked for again.
    expect(listed).toHaveLength(2);
  });

  it('asks a signed-out reader to sign in, coming back to the link', async () => {
    setup('ok', false);
    const signIn = await screen.findByRole('link', { name: 'Entrar para continuar' }, WAIT);
    expect(signIn.getAttribute('href')).toBe(`/auth/login?redirect=${encodeURIComponent(`/s/${ID}`)}`);
  });

  it('a 404 says the link is not available to a signed-in reader, and asks a signed-out one to sign in', async () => {
    setup(404, true);
    expect(await screen.findByRole('heading', { name: 'Este link não está disponível' }, WAIT)).toBeTruthy();
    resetSession();
    cleanup();
    setup(404, false);
    await waitFor(
      () => expect(screen.getByRole('heading', { name: 'Entre para ver esta conversa' })).toBeTruthy(),
      WAIT,
    );
    expect(screen.getByRole('link', { name: 'Entrar' }).getAttribute('href')).toContain('redirect=');
  });
});
