import type { Chat, ChatImportReport } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UploadAnswer } from '../../../lib/upload/postFile.ts';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { useChatsList } from '../../chats/index.ts';
import { ChatImportTab } from './ChatImportTab.tsx';

/** The upload as the page makes it (XMLHttpRequest, for its progress), answered by each test. */
const xhr = vi.hoisted(() => ({
  calls: [] as Array<{
    url: string;
    file: File;
    onProgress?: (f: number) => void;
    answer: (a: UploadAnswer) => void;
  }>,
}));
vi.mock('../../../lib/upload/postFile.ts', async (original) => ({
  ...(await original<typeof import('../../../lib/upload/postFile.ts')>()),
  postFile: (options: { url: string; file: File; onProgress?: (f: number) => void }) =>
    new Promise<UploadAnswer>((answer) => xhr.calls.push({ ...options, answer })),
}));

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => {
  resetSession();
  xhr.calls = [];
});

const WAIT = { timeout: 5000 };
const CHAT_ID = '11111111-1111-4111-8111-111111111111';

const chat = (title: string): Chat => ({
  chatId: CHAT_ID,
  title,
  agentId: null,
  pinned: false,
  createdAt: '2023-11-14T22:13:20.000Z',
  updatedAt: '2023-11-14T22:14:20.000Z',
  params: {},
});

/** The sidebar's list, as the chats feature reads it: what an import must make it ask again. */
function ChatTitles() {
  const list = useChatsList('');
  const chats = list.data?.pages.flatMap((p) => p.items) ?? [];
  return <output data-testid="titles">{chats.map((c) => c.title).join(', ')}</output>;
}

function setup() {
  const services = installFakeServices();
  signInSession();
  let listed: Chat[] = [];
  routeHttp(services.chatsHttp, { 'GET /api/v1/chats': () => ({ body: listed }) });
  renderFeature(
    <>
      <ChatImportTab />
      <ChatTitles />
    </>,
  );
  return { setListed: (chats: Chat[]) => (listed = chats) };
}

const zip = () => new File(['PK\u0003\u0004…'], 'chatgpt-export.zip', { type: 'application/zip' });

function choose(file: File) {
  fireEvent.change(screen.getByTestId('chat-import-input'), { target: { files: [file] } });
}

async function upload(): Promise<(typeof xhr.calls)[number]> {
  await waitFor(() => expect(xhr.calls).toHaveLength(1), WAIT);
  return xhr.calls[0]!;
}

const report = (patch: Partial<ChatImportReport>): ChatImportReport => ({
  format: 'chatgpt',
  imported: 0,
  skipped: 0,
  failed: [],
  items: [],
  ...patch,
});

describe('ChatImportTab', { timeout: 20_000 }, () => {
  it('says which files it takes and where to get them', () => {
    setup();
    expect(screen.getByText(/Configurações → Controles de dados → Exportar dados/)).toBeTruthy();
    expect(screen.getByText(/Configurações → Privacidade → Exportar dados/)).toBeTruthy();
    expect(screen.getByText(/até 512 MB/)).toBeTruthy();
  });

  it('shows the upload’s progress, then the import, then each conversation; the chat list is asked again', async () => {
    const { setListed } = setup();
    await waitFor(() => expect(screen.getByTestId('titles').textContent).toBe(''), WAIT);
    choose(zip());
    const call = await upload();
    expect(call.url).toContain('/api/v1/chats/import');
    expect(call.file.name).toBe('chatgpt-export.zip');

    call.onProgress?.(0.42);
    expect(await screen.findByText('42%', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Enviando chatgpt-export.zip…')).toBeTruthy();
    call.onProgress?.(1);
    expect(await screen.findByText('Importando chatgpt-export.zip…', {}, WAIT)).toBeTruthy();

    setListed([chat('Capitais')]);
    call.answer({
      status: 200,
      data: report({
        imported: 1,
        skipped: 1,
        failed: [{ title: 'Vazia', reason: 'The conversation has no messages to import' }],
        items: [
          { title: 'Capitais', status: 'imported', chatId: CHAT_ID, messages: 7 },
          {
            title: 'Saudação',
            status: 'skipped',
            chatId: '22222222-2222-4222-8222-222222222222',
            reason: 'Imported before',
            reasonCode: 'already_imported',
            messages: 2,
          },
          { title: 'Vazia', status: 'failed', reason: 'x', reasonCode: 'empty', messages: 0 },
        ],
      }),
    });

    const summary = await screen.findByTestId('chat-import-summary', {}, WAIT);
    expect(summary.getAttribute('data-outcome')).toBe('imported');
    expect(summary.textContent).toContain('1 conversa importada · 1 já importada antes · 1 com falha');
    const items = screen.getAllByTestId('chat-import-item');
    expect(items.map((i) => i.getAttribute('data-status'))).toEqual(['imported', 'skipped', 'failed']);
    expect(within(items[0]!).getByRole('link', { name: 'Capitais' }).getAttribute('href')).toBe(
      `/chats/${CHAT_ID}`,
    );
    expect(items[0]!.textContent).toContain('7 mensagens');
    expect(items[1]!.textContent).toContain('Já importada');
    expect(items[1]!.textContent).toContain('já importada antes');
    expect(items[2]!.textContent).toContain('não tem mensagens para importar');
    // The sidebar's list was read again: the new chat is in it.
    await waitFor(() => expect(screen.getByTestId('titles').textContent).toBe('Capitais'), WAIT);
  });

  it('never calls an import that brought nothing new a success: it says they were all imported before', async () => {
    setup();
    choose(zip());
    const call = await upload();
    call.answer({
      status: 200,
      data: report({
        skipped: 2,
        items: [
          { title: 'A', status: 'skipped', chatId: CHAT_ID, reasonCode: 'already_imported', messages: 2 },
          { title: 'B', status: 'skipped', reasonCode: 'already_imported', messages: 2 },
        ],
      }),
    });
    const summary = await screen.findByTestId('chat-import-summary', {}, WAIT);
    expect(summary.getAttribute('data-outcome')).toBe('nothing');
    expect(summary.textContent).toContain('Nada foi importado');
    expect(summary.textContent).toContain(
      'Todas as 2 conversas deste arquivo já tinham sido importadas antes.',
    );
    expect(summary.textContent).toContain('2 já importadas antes');
    expect(summary.textContent).not.toContain('chatImport.');
    expect(screen.queryByText('Importação concluída')).toBeNull();
  });

  it('says when no conversation could be read, with each one’s reason', async () => {
    setup();
    choose(new File(['[]'], 'conversations.json', { type: 'application/json' }));
    const call = await upload();
    call.answer({
      status: 200,
      data: report({
        format: 'claude',
        failed: [{ title: 'Longa', reason: 'too many' }],
        items: [
          { title: 'Longa', status: 'failed', reasonCode: 'too_many_messages', reason: 'x', messages: 0 },
        ],
      }),
    });
    const summary = await screen.findByTestId('chat-import-summary', {}, WAIT);
    expect(summary.textContent).toContain('A conversa deste arquivo não pôde ser importada.');
    expect(screen.getByTestId('chat-import-item').textContent).toContain('tem mais de 10.000 mensagens');
  });

  it('explains a refused ZIP bomb, and takes another file at once', async () => {
    setup();
    choose(zip());
    const call = await upload();
    call.answer({
      status: 413,
      data: {
        error: {
          status: 413,
          code: 'PAYLOAD_TOO_LARGE',
          message: 'conversations.json in the ZIP is compressed more than 100 times',
          details: { reason: 'limit', limit: 'ratio', max: 100 },
        },
      },
    });
    const error = await screen.findByTestId('chat-import-error', {}, WAIT);
    expect(error.textContent).toContain('Não foi possível importar chatgpt-export.zip');
    expect(error.textContent).toContain('como numa bomba ZIP');
    expect(error.textContent).toContain('Nada foi importado.');
    expect(screen.getByTestId('chat-import-drop')).toBeTruthy();
  });

  it('says in words what is not an export (400) and what is too large (413)', async () => {
    setup();
    choose(zip());
    (await upload()).answer({
      status: 400,
      data: { error: { status: 400, code: 'BAD_REQUEST', message: 'x', details: { reason: 'not_export' } } },
    });
    expect((await screen.findByTestId('chat-import-error', {}, WAIT)).textContent).toContain(
      'não há nele um conversations.json com conversas',
    );
    xhr.calls = [];
    choose(zip());
    (await upload()).answer({
      status: 413,
      data: {
        error: {
          status: 413,
          code: 'PAYLOAD_TOO_LARGE',
          message: 'x',
          details: { reason: 'limit', limit: 'entries', max: 20000 },
        },
      },
    });
    await waitFor(
      () =>
        expect(screen.getByTestId('chat-import-error').textContent).toContain(
          'O ZIP tem mais de 20.000 arquivos.',
        ),
      WAIT,
    );
  });

  it('refuses a file of another kind without sending it', async () => {
    setup();
    fireEvent.drop(screen.getByTestId('chat-import-drop'), {
      dataTransfer: { files: [new File(['<html>'], 'chat.html', { type: 'text/html' })], types: ['Files'] },
    });
    const error = await screen.findByTestId('chat-import-error', {}, WAIT);
    expect(error.textContent).toContain('Este arquivo não é uma exportação.');
    expect(xhr.calls).toHaveLength(0);
  });
});
