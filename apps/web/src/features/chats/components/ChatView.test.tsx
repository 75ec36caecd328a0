import type { Attachment } from '@assistente/contracts';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeAgentsSocket } from '../../../test/fakeAgentsSocket.ts';
import { CHAT_ID, chat as chatFixture, userMessage } from '../../../test/fixtures.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { AgentsController, agentsController, stopAgents } from '../lib/agents.ts';
import { ChatView } from './ChatView.tsx';

const chat = chatFixture();
const attachment: Attachment = {
  attachmentId: '44444444-4444-4444-8444-444444444444',
  chatId: CHAT_ID,
  name: 'notas.txt',
  contentType: 'text/plain',
  size: 12,
  createdAt: '2026-01-01T00:00:00.000Z',
  url: '/x',
};

const api = vi.hoisted(() => ({
  createChat: vi.fn(),
  getChat: vi.fn(),
  deleteChat: vi.fn(async () => undefined),
  deleteAttachment: vi.fn(async () => undefined),
}));
vi.mock('../hooks/chatsApi.ts', () => ({ chatsApi: () => api }));
vi.mock('../../auth/requests.ts', () => ({
  authorizedRequest: async (path: string) => ({ url: path, headers: {} }),
  downloadFile: vi.fn(),
}));
vi.mock('../lib/upload.ts', () => ({
  UploadError: class extends Error {},
  uploadFile: async () => attachment,
}));

const santito = await vi.hoisted(async () =>
  (await import('../../../test/fixtures.ts')).santito({
    domain: 'acme.test',
    authorId: 'author@acme.test',
    canEdit: false,
  }),
);
vi.mock('../../santitos/hooks/useSantitos.ts', () => ({
  useSantito: (id: string | null | undefined) => ({ data: id === santito._id ? santito : undefined }),
}));

/** Frames arrive inside act(): they re-render the view. */
class FakeSocket extends FakeAgentsSocket {
  override receive(frame: unknown) {
    act(() => super.receive(frame));
  }
}

/** The tab's agents controller, on a fake socket that is connected and ready. */
async function connectedAgents(): Promise<FakeSocket> {
  const socket = new FakeSocket();
  const agents = agentsController(
    () =>
      new AgentsController({
        url: 'ws://test',
        getToken: async () => 'token',
        createSocket: () => socket,
        connectivity: { isOnline: () => true, subscribe: () => () => {} },
      }),
  );
  agents.socket.start();
  socket.readyState = 1;
  socket.onopen?.({});
  await waitFor(() => expect(socket.sent.some((f) => f.type === 'auth')).toBe(true));
  socket.receive({
    type: 'ready',
    userId: 'u',
    limits: { maxFrameBytes: 1, maxConcurrent: 3, sendsPerMinute: 30 },
  });
  return socket;
}

/** `/chats` (a new chat) and the chat it opens. */
async function openNewChat() {
  const socket = await connectedAgents();
  renderFeature(
    <Routes>
      <Route path="/chats" element={<ChatView chatId={null} />} />
      <Route path="/chats/:chatId" element={<p>chat opened</p>} />
    </Routes>,
    { path: '/chats' },
  );
  const input = screen.getByRole('textbox', { name: 'Mensagem' }) as HTMLTextAreaElement;
  await waitFor(() => expect(input.placeholder).not.toContain('Sem conexão'));
  return { socket, input };
}

const lastSend = (socket: FakeSocket) => socket.sent.filter((f) => f.type === 'chat.send').at(-1);

beforeAll(async () => {
  await loadTestTexts();
});

afterEach(() => {
  // Unmounted first: a view still on screen would make a new controller once this one stops.
  cleanup();
  stopAgents();
  vi.clearAllMocks();
});

describe('ChatView, a send the server refuses', () => {
  it('gives the first message back to the composer with the notice (no provider)', async () => {
    const { socket, input } = await openNewChat();
    await userEvent.type(input, 'Olá, tudo bem?{Enter}');
    const frame = lastSend(socket);
    expect(frame).toMatchObject({ chatId: null, content: 'Olá, tudo bem?' });
    expect(input.value).toBe('');

    socket.receive({
      type: 'error',
      requestId: frame?.requestId,
      code: 'NO_PROVIDER',
      message: 'No AI provider is configured for your domain.',
    });
    await waitFor(() => expect(input.value).toBe('Olá, tudo bem?'));
    expect(screen.getByTestId('chat-error').getAttribute('data-code')).toBe('NO_PROVIDER');
    expect(screen.queryByText('chat opened')).toBeNull();
  });

  it('gives the files back too, and stays on the new chat until a send is stored', async () => {
    api.createChat.mockResolvedValue(chat);
    api.getChat.mockResolvedValue(chat);
    const { socket, input } = await openNewChat();
    await userEvent.upload(screen.getByTestId('file-input'), new File(['notas: nada'], 'notas.txt'));
    await waitFor(() => expect(screen.getByTestId('upload-chip').dataset.status).toBe('done'));
    await userEvent.type(input, 'Resuma o arquivo{Enter}');
    const refused = lastSend(socket);
    expect(refused).toMatchObject({ chatId: CHAT_ID, attachments: [attachment.attachmentId] });
    expect(screen.queryByTestId('upload-chip')).toBeNull();

    socket.receive({
      type: 'error',
      requestId: refused?.requestId,
      chatId: CHAT_ID,
      code: 'RATE_LIMITED',
      message: 'Wait a moment.',
    });
    await waitFor(() => expect(input.value).toBe('Resuma o arquivo'));
    expect(screen.getByTestId('upload-chip').textContent).toContain('notas.txt');
    expect(screen.getByTestId('chat-error').getAttribute('data-code')).toBe('RATE_LIMITED');
    expect(screen.queryByText('chat opened')).toBeNull();

    // Sent again, the same file goes with it; once the message is stored the chat opens.
    await userEvent.click(screen.getByRole('button', { name: 'Enviar mensagem' }));
    const retried = lastSend(socket);
    expect(retried).toMatchObject({ content: 'Resuma o arquivo', attachments: [attachment.attachmentId] });
    const question = userMessage({ content: 'Resuma o arquivo' });
    socket.receive({
      type: 'message.created',
      requestId: retried?.requestId,
      chatId: CHAT_ID,
      message: question,
    });
    await screen.findByText('chat opened');
    // Its first message stored, the chat made for the file is a chat of the lists, kept.
    expect(api.getChat).toHaveBeenCalledWith(CHAT_ID);
    expect(api.deleteChat).not.toHaveBeenCalled();
  });

  it('deletes the chat made for a file when the user leaves without sending', async () => {
    api.createChat.mockResolvedValue(chat);
    await openNewChat();
    await userEvent.upload(screen.getByTestId('file-input'), new File(['notas: nada'], 'notas.txt'));
    await waitFor(() => expect(screen.getByTestId('upload-chip').dataset.status).toBe('done'));
    expect(api.deleteChat).not.toHaveBeenCalled();
    cleanup();
    expect(api.deleteChat).toHaveBeenCalledWith(CHAT_ID);
  });

  it('keeps the composer empty when the message was stored before an error', async () => {
    const { socket, input } = await openNewChat();
    await userEvent.type(input, 'Olá{Enter}');
    const frame = lastSend(socket);
    socket.receive({ type: 'chat.created', requestId: frame?.requestId, chat });
    socket.receive({
      type: 'message.created',
      requestId: frame?.requestId,
      chatId: CHAT_ID,
      message: userMessage(),
    });
    socket.receive({
      type: 'error',
      requestId: frame?.requestId,
      chatId: CHAT_ID,
      code: 'INTERNAL',
      message: 'Something went wrong; try again.',
    });
    await screen.findByText('chat opened');
    expect(input.value).toBe('');
  });
});

describe('ChatView with a santito', () => {
  afterEach(async () => {
    await loadTestTexts();
  });

  it.each([
    ['pt-BR', 'Pergunte ao santito Tradutor Jurídico'],
    ['en', 'Ask Tradutor Jurídico'],
    ['es', 'Pregúntale al santito Tradutor Jurídico'],
  ] as const)(
    'asks the santito by name in a form that is grammatical whatever the name (%s)',
    async (locale, text) => {
      await loadTestTexts(locale);
      await connectedAgents();
      renderFeature(<ChatView chatId={null} agentId={santito._id} />, { path: '/chats' });
      // "Pergunte a Tradutor Jurídico" was not: a name's gender is not the app's to know.
      expect(await screen.findByPlaceholderText(text)).toBeTruthy();
    },
  );
});
