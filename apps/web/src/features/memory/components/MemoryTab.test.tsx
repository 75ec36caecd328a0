import type { Memory, MemoryList } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { MemoryTab } from './MemoryTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const memory = (id: string, text: string, source: Memory['source'], at: string): Memory => ({
  id,
  text,
  source,
  createdAt: at,
  updatedAt: at,
});

/** A memory service over a list kept here: what the tab sends changes what it reads next. */
function serve(
  role: 'Viewer' | 'Admin',
  state: { enabled: boolean; memories: Memory[]; injected?: number },
  fail: { post?: { status: number; code: string } } = {},
) {
  const services = installFakeServices();
  signInSession({ role });
  const sent: Array<{ route: string; body: unknown }> = [];
  const note = (route: string, request: FakeRequest) => sent.push({ route, body: request.body });
  const list = (): MemoryList => ({
    enabled: state.enabled,
    memories: state.memories,
    injected: state.enabled ? (state.injected ?? state.memories.length) : 0,
  });
  routeHttp(services.accountHttp, {
    'GET /api/v1/me/memories': () => ({ body: list() }),
    'POST /api/v1/me/memories': (request) => {
      note('POST', request);
      if (fail.post) return { ...fail.post, message: 'refused' };
      const text = (request.body as { text: string }).text;
      const made = memory(`m${state.memories.length + 1}`, text, 'user', '2026-11-29T12:00:00.000Z');
      state.memories = [made, ...state.memories];
      return { body: made };
    },
    'PUT /api/v1/me/memories/m1': (request) => {
      note('PUT m1', request);
      const text = (request.body as { text: string }).text;
      state.memories = state.memories.map((m) => (m.id === 'm1' ? { ...m, text } : m));
      return { body: state.memories.find((m) => m.id === 'm1') };
    },
    'DELETE /api/v1/me/memories/m2': (request) => {
      note('DELETE m2', request);
      state.memories = state.memories.filter((m) => m.id !== 'm2');
      return {};
    },
    'PUT /api/v1/settings/memory': (request) => {
      note('PUT settings', request);
      state.enabled = (request.body as { enabled: boolean }).enabled;
      return { body: { enabled: state.enabled } };
    },
  });
  renderFeature(<MemoryTab user={{ role }} />);
  return sent;
}

const two = () => [
  memory('m2', 'Trabalho no time de vendas', 'assistant', '2026-11-29T11:00:00.000Z'),
  memory('m1', 'Prefiro respostas em tópicos curtos', 'user', '2026-11-29T10:00:00.000Z'),
];

describe('MemoryTab', { timeout: 30_000 }, () => {
  it('lists one’s memories newest first, who saved each, and how many go into chats', async () => {
    serve('Viewer', { enabled: true, memories: two(), injected: 1 });
    const rows = await screen.findAllByTestId('memory-row', {}, { timeout: 10_000 });
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Trabalho no time de vendas'),
      expect.stringContaining('Prefiro respostas em tópicos curtos'),
    ]);
    expect(within(rows[0] as HTMLElement).getByTestId('memory-source').textContent).toContain(
      'Salva pelo assistente',
    );
    expect(within(rows[1] as HTMLElement).getByTestId('memory-source').textContent).toContain(
      'Salva por você',
    );
    // Past what a chat is given, a memory says so.
    expect(
      within(rows[1] as HTMLElement).getByText('Fora do limite: não vai para as conversas'),
    ).toBeTruthy();
    expect(screen.getByTestId('memory-injected').textContent).toContain(
      '1 de 2 memórias vão para as suas conversas.',
    );
    expect(screen.getByTestId('memory-injected').textContent).toContain('só nas suas próprias conversas');
    // Nobody but an Admin sees the organisation's switch.
    expect(screen.queryByTestId('memory-switch')).toBeNull();
  });

  it('adds a memory, edits one in place and deletes one after asking', async () => {
    const sent = serve('Viewer', { enabled: true, memories: two() });
    await screen.findAllByTestId('memory-row', {}, { timeout: 10_000 });

    fireEvent.change(screen.getByRole('textbox', { name: 'Nova memória' }), {
      target: { value: '  Moro em Recife  ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(3));
    expect(sent[0]).toEqual({ route: 'POST', body: { text: 'Moro em Recife' } });
    expect(screen.getAllByTestId('memory-row')[0]?.textContent).toContain('Moro em Recife');

    const first = screen.getAllByTestId('memory-row')[2] as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: 'Editar' }));
    const field = within(first).getByRole('textbox', { name: 'Texto da memória' });
    expect((field as HTMLTextAreaElement).value).toBe('Prefiro respostas em tópicos curtos');
    fireEvent.change(field, { target: { value: 'Prefiro tópicos bem curtos' } });
    fireEvent.click(within(first).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.getByText('Prefiro tópicos bem curtos')).toBeTruthy());
    expect(sent[1]).toEqual({ route: 'PUT m1', body: { text: 'Prefiro tópicos bem curtos' } });

    const assistant = screen
      .getAllByTestId('memory-row')
      .find((r) => r.textContent?.includes('Trabalho no time de vendas')) as HTMLElement;
    fireEvent.click(within(assistant).getByRole('button', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir memória?' });
    expect(dialog.textContent).toContain('O assistente deixa de saber: “Trabalho no time de vendas”.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(2));
    expect(sent[2]?.route).toBe('DELETE m2');
    expect(screen.queryByText('Trabalho no time de vendas')).toBeNull();
  });

  it('downloads one’s memories as a JSON file', async () => {
    serve('Viewer', { enabled: true, memories: two() });
    await screen.findAllByTestId('memory-row', {}, { timeout: 10_000 });
    const saved: Blob[] = [];
    const created = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      saved.push(blob);
      return 'blob:memories';
    };
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Baixar minhas memórias (JSON)' }));
    } finally {
      URL.createObjectURL = created;
    }
    expect(saved).toHaveLength(1);
    // jsdom's Blob has no text(): read it as a browser without it would.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(saved[0] as Blob);
    });
    const file = JSON.parse(text) as { memories: Memory[] };
    expect(file.memories.map((m) => m.text)).toEqual([
      'Trabalho no time de vendas',
      'Prefiro respostas em tópicos curtos',
    ]);
  });

  it('explains how to start when there is none', async () => {
    serve('Viewer', { enabled: true, memories: [] });
    expect(await screen.findByText('Nenhuma memória ainda', {}, { timeout: 10_000 })).toBeTruthy();
    expect(
      screen.getByText(/Peça ao assistente numa conversa: “lembre que prefiro respostas curtas”/),
    ).toBeTruthy();
    expect(screen.queryByTestId('memory-injected')).toBeNull();
  });

  it('says so when the limit is reached', async () => {
    serve('Viewer', { enabled: true, memories: two() }, { post: { status: 409, code: 'CONFLICT' } });
    await screen.findAllByTestId('memory-row', {}, { timeout: 10_000 });
    fireEvent.change(screen.getByRole('textbox', { name: 'Nova memória' }), { target: { value: 'Mais' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText(/Você já guarda 200 memórias/)).toBeTruthy();
    expect(screen.getAllByTestId('memory-row')).toHaveLength(2);
  });

  it('off: a person is told to ask an Admin, and can add nothing', async () => {
    serve('Viewer', { enabled: false, memories: [] });
    const off = await screen.findByTestId('memory-off', {}, { timeout: 10_000 });
    expect(off.textContent).toContain('A memória está desligada');
    expect(off.textContent).toContain('Peça a um administrador');
    expect(screen.queryByTestId('memory-add')).toBeNull();
    expect(screen.queryByTestId('memory-switch')).toBeNull();
  });

  it('off: an Admin turns it on right here, and can then add', async () => {
    const sent = serve('Admin', { enabled: false, memories: [] });
    await screen.findByTestId('memory-off', {}, { timeout: 10_000 });
    expect(screen.queryByText(/Peça a um administrador/)).toBeNull();
    const toggle = screen.getByRole('switch', { name: /Memória na organização/ });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByTestId('memory-add')).toBeTruthy());
    expect(sent).toEqual([{ route: 'PUT settings', body: { enabled: true } }]);
    expect(screen.queryByTestId('memory-off')).toBeNull();
    expect((screen.getByRole('switch', { name: /Memória na organização/ }) as HTMLInputElement).checked).toBe(
      true,
    );
  });
});
