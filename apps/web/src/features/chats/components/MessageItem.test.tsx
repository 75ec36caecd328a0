import type { Citation, Message, ToolPart } from '@assistente/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { rendererChunk } from '../markdown/Markdown.tsx';
import { MessageItem } from './MessageItem.tsx';

beforeAll(async () => {
  await loadTestTexts();
  await rendererChunk.load();
});

const sources: Citation[] = [
  { title: 'Política de viagens', url: 'https://wiki.example.com/viagens', sourceId: 's1' },
  { title: 'Manual de reembolso', url: '/api/v1/integration/knowledge/s2/documents/d2/file', sourceId: 's2' },
  { title: 'Código de conduta', url: 'https://wiki.example.com/conduta', sourceId: 's3' },
];

function answer(content: string): Message {
  return {
    messageId: 'm1',
    chatId: 'c1',
    parentId: 'q1',
    role: 'assistant',
    content,
    status: 'complete',
    createdAt: '2026-01-01T00:00:00.000Z',
    citations: sources,
  };
}

const actions = { regenerate: vi.fn(), edit: vi.fn(), selectSibling: vi.fn(), approveTool: vi.fn() };
const renderAnswer = (content: string) =>
  renderWithProviders(<MessageItem message={answer(content)} actions={actions} busy={false} canAct />);

describe('an answer that draws on knowledge', () => {
  it('links each [n] to its source: a web page directly, an uploaded document to its entry', () => {
    const { container } = renderAnswer(
      'Reembolsos saem em 7 dias [2]; viagens pelo portal [1]. Em `[3]` não.',
    );
    const web = screen.getByRole('link', { name: '[1]' });
    expect(web.getAttribute('href')).toBe('https://wiki.example.com/viagens');
    expect(web.getAttribute('target')).toBe('_blank');
    const doc = screen.getByRole('link', { name: '[2]' });
    expect(doc.getAttribute('href')).toBe('#citation-m1-2');
    expect(container.querySelector('#citation-m1-2')?.textContent).toContain('Manual de reembolso');
    // Inside code a marker stays text.
    expect(screen.queryByRole('link', { name: '[3]' })).toBeNull();
  });

  it('lists only the cited sources, keeping their numbers', () => {
    renderAnswer('Reembolsos saem em 7 dias [2].');
    const list = screen.getByRole('region', { name: 'Fontes' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent?.trim())).toEqual(['Manual de reembolso']);
    expect(items[0]?.getAttribute('value')).toBe('2');
  });

  it('lists every source when the answer cites none', () => {
    renderAnswer('Não encontrei nada específico.');
    const list = screen.getByRole('region', { name: 'Fontes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  });
});

describe('an answer that used tools', () => {
  const withTools = (patch: Partial<Message> = {}): Message => ({
    messageId: 'm2',
    chatId: 'c1',
    parentId: 'q1',
    role: 'assistant',
    content: 'Vou procurar o chamado.Encontrei o chamado #42.Quer que eu o feche?',
    status: 'awaiting_approval',
    createdAt: '2026-01-01T00:00:00.000Z',
    parts: [
      { type: 'text', text: 'Vou procurar o chamado.' },
      {
        type: 'tool',
        toolCallId: 'call-1',
        tool: 'mcp:s1:find_ticket',
        title: 'Buscar chamado',
        input: { query: 'impressora' },
        status: 'done',
        output: '#42 Impressora parada',
        durationMs: 1234,
      },
      { type: 'text', text: 'Encontrei o chamado #42.' },
      {
        type: 'tool',
        toolCallId: 'call-2',
        tool: 'mcp:s1:close_ticket',
        title: 'Fechar chamado',
        input: { id: 42 },
        status: 'awaiting_approval',
      },
    ],
    ...patch,
  });

  const renderTools = (props: { latest?: boolean; canAct?: boolean } = {}) => {
    const approveTool = vi.fn();
    renderWithProviders(
      <MessageItem
        message={withTools()}
        actions={{ ...actions, approveTool }}
        busy={false}
        canAct={props.canAct ?? true}
        latest={props.latest ?? true}
      />,
    );
    return approveTool;
  };

  it('shows its text parts, each step with its status, and the text after the last step', () => {
    renderTools();
    const message = screen.getByTestId('message');
    expect(message.textContent).toContain('Vou procurar o chamado.');
    expect(message.textContent).toContain('Encontrei o chamado #42.');
    expect(message.textContent).toContain('Quer que eu o feche?');
    const [done, waiting] = screen.getAllByTestId('tool-step');
    expect(done?.getAttribute('data-status')).toBe('done');
    expect(within(done as HTMLElement).getByText('Buscar chamado')).toBeTruthy();
    expect(within(done as HTMLElement).getByText('Concluída')).toBeTruthy();
    expect(within(done as HTMLElement).getByText('1,2 s')).toBeTruthy();
    expect(within(done as HTMLElement).getByTestId('tool-arguments').textContent).toContain(
      '"query": "impressora"',
    );
    expect(within(done as HTMLElement).getByTestId('tool-output').textContent).toBe('#42 Impressora parada');
    expect(within(waiting as HTMLElement).getByText('Aguardando sua aprovação')).toBeTruthy();
  });

  it('lets the person allow, allow for the chat, or deny the call it waits on', async () => {
    const approveTool = renderTools();
    const group = screen.getByRole('group', { name: 'O santito quer usar Fechar chamado. Permitir?' });
    const buttons = within(group).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Permitir', 'Permitir nesta conversa', 'Recusar']);
    fireEvent.click(buttons[1] as HTMLElement);
    expect(approveTool).toHaveBeenCalledWith('call-2', 'allow', true);
    // Sent once: the buttons wait for the answer to resume.
    expect(buttons.every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
  });

  it.each([
    ['Permitir', 'allow', false],
    ['Recusar', 'deny', false],
  ] as const)('%s sends %s', (label, decision, remember) => {
    const approveTool = renderTools();
    fireEvent.click(screen.getByRole('button', { name: label }));
    expect(approveTool).toHaveBeenCalledWith('call-2', decision, remember);
  });

  it('offers no decision on an older answer', () => {
    renderTools({ latest: false });
    expect(screen.queryByRole('button', { name: 'Permitir' })).toBeNull();
  });
});

describe('an answer that used built-in tools', () => {
  const step = (patch: Partial<ToolPart>): ToolPart => ({
    type: 'tool',
    toolCallId: 'call-1',
    tool: 'builtin:web_search',
    title: 'Web search',
    input: { query: 'feriados 2026' },
    status: 'done',
    output: '1. Feriados nacionais',
    ...patch,
  });
  const renderSteps = (parts: ToolPart[], status: Message['status'] = 'complete') =>
    renderWithProviders(
      <MessageItem
        message={{
          messageId: 'm3',
          chatId: 'c1',
          parentId: 'q1',
          role: 'assistant',
          content: 'Pronto.',
          status,
          createdAt: '2026-01-01T00:00:00.000Z',
          parts: [...parts, { type: 'text', text: 'Pronto.' }],
        }}
        actions={actions}
        busy={false}
        canAct
        latest
      />,
    );

  it('says what each step did, in the reader’s words, with the tool named for screen readers', () => {
    renderSteps([
      step({}),
      step({
        toolCallId: 'call-2',
        tool: 'builtin:fetch_page',
        title: 'Read page',
        input: { url: 'https://www.gov.br/feriados?ano=2026' },
      }),
      step({
        toolCallId: 'call-3',
        tool: 'builtin:knowledge_search',
        title: 'Knowledge search',
        input: { query: 'ponte' },
      }),
    ]);
    const [search, page, knowledge] = screen.getAllByTestId('tool-step');
    expect(within(search as HTMLElement).getByText('Pesquisou na web por “feriados 2026”')).toBeTruthy();
    expect(within(search as HTMLElement).getByRole('img', { name: 'Pesquisa na web' })).toBeTruthy();
    expect(within(page as HTMLElement).getByText('Leu www.gov.br')).toBeTruthy();
    expect(within(knowledge as HTMLElement).getByText('Pesquisou no conhecimento por “ponte”')).toBeTruthy();
    expect(screen.queryByText('Web search')).toBeNull();
  });

  it('speaks in the present while a step runs, and names the tool when asking for approval', () => {
    renderSteps(
      [
        step({ status: 'running', output: undefined }),
        step({
          toolCallId: 'call-2',
          tool: 'builtin:fetch_page',
          title: 'Read page',
          input: { url: 'https://example.com/a' },
          status: 'awaiting_approval',
          output: undefined,
        }),
      ],
      'awaiting_approval',
    );
    expect(screen.getByText('Pesquisando na web por “feriados 2026”')).toBeTruthy();
    expect(screen.getByText('Ler example.com')).toBeTruthy();
    expect(
      screen.getByRole('group', { name: 'O santito quer usar Leitura de página. Permitir?' }),
    ).toBeTruthy();
  });
});
