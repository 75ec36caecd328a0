import type { Attachment, Citation, Message, ToolPart } from '@assistente/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { rendererChunk } from '../markdown/Markdown.tsx';
import { MessageItem } from './MessageItem.tsx';

// Files behind the bearer token: their bytes and downloads, as the page's caller would fetch them.
const requests = vi.hoisted(() => ({ fetchBlob: vi.fn(), downloadFile: vi.fn() }));
vi.mock('../../auth/requests.ts', () => ({
  authorizedRequest: async (path: string) => ({ url: path, headers: {} }),
  fetchBlob: requests.fetchBlob,
  downloadFile: requests.downloadFile,
}));

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
    // The site and the path (not the query): two pages of one site read apart.
    expect(within(page as HTMLElement).getByText('Leu www.gov.br/feriados')).toBeTruthy();
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
    expect(screen.getByText('Ler example.com/a')).toBeTruthy();
    expect(
      screen.getByRole('group', { name: 'O santito quer usar Leitura de página. Permitir?' }),
    ).toBeTruthy();
  });
});

describe('an answer that ran code', () => {
  const file = (patch: Partial<Attachment>): Attachment => ({
    attachmentId: 'att-chart',
    chatId: 'c1',
    name: 'chart.png',
    contentType: 'image/png',
    size: 2048,
    createdAt: '2026-01-01T00:00:00.000Z',
    url: '/api/v1/chats/c1/attachments/att-chart',
    ...patch,
  });
  const chart = file({});
  const table = file({
    attachmentId: 'att-table',
    name: 'vendas.csv',
    contentType: 'text/csv',
    size: 812,
    url: '/api/v1/chats/c1/attachments/att-table',
  });
  const run = (patch: Partial<ToolPart> = {}): ToolPart => ({
    type: 'tool',
    toolCallId: 'call-code',
    tool: 'builtin:code_interpreter',
    title: 'Code interpreter',
    input: {
      lang: 'py',
      code: 'import pandas as pd\ndf = pd.read_csv("vendas.csv")\ndf.plot().figure.savefig("chart.png")',
    },
    status: 'done',
    output: 'stdout:\nok',
    durationMs: 2300,
    files: [chart, table],
    ...patch,
  });
  const renderRun = (part: ToolPart, status: Message['status'] = 'complete') =>
    renderWithProviders(
      <MessageItem
        message={{
          messageId: 'm4',
          chatId: 'c1',
          parentId: 'q1',
          role: 'assistant',
          content: 'Segue o gráfico.',
          status,
          createdAt: '2026-01-01T00:00:00.000Z',
          parts: [part, { type: 'text', text: 'Segue o gráfico.' }],
        }}
        actions={actions}
        busy={false}
        canAct
        latest
      />,
    );

  const createObjectURL = vi.fn(() => 'blob:chart');
  const revokeObjectURL = vi.fn();
  beforeAll(() => {
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });
  afterEach(() => {
    requests.fetchBlob.mockReset();
    requests.downloadFile.mockReset();
    createObjectURL.mockClear();
    revokeObjectURL.mockClear();
  });

  it('says what it ran, shows its code, and shows the chart it made with its table to download', async () => {
    requests.fetchBlob.mockResolvedValue({
      blob: new Blob(['png'], { type: 'image/png' }),
      response: new Response(),
    });
    requests.downloadFile.mockResolvedValue(undefined);
    const { unmount } = renderRun(run());
    const step = screen.getByTestId('tool-step');
    expect(within(step).getByText('Executou código Python')).toBeTruthy();
    expect(within(step).getByRole('img', { name: 'Interpretador de código' })).toBeTruthy();
    expect(within(step).getByText('Código (Python)')).toBeTruthy();
    expect(within(step).getByTestId('tool-code').textContent).toContain('df = pd.read_csv("vendas.csv")');
    expect(within(step).queryByTestId('tool-arguments')).toBeNull();
    expect(within(step).getByTestId('tool-output').textContent).toBe('stdout:\nok');

    // The chart arrives through the token, then shows under the step without opening it.
    expect(within(step).getByRole('status').textContent).toContain('Carregando chart.png');
    const image = (await within(step).findByRole('img', { name: 'chart.png' })) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('blob:chart');
    expect(image.closest('details')).toBeNull();
    expect(requests.fetchBlob).toHaveBeenCalledWith('/api/v1/chats/c1/attachments/att-chart', 'chats');
    expect(requests.fetchBlob).toHaveBeenCalledTimes(1);

    fireEvent.click(within(step).getByRole('button', { name: 'Baixar chart.png' }));
    expect(requests.downloadFile).toHaveBeenLastCalledWith(
      '/api/v1/chats/c1/attachments/att-chart',
      'chart.png',
    );

    // The table is a file to download, with its size.
    const csv = within(step).getByTestId('attachment');
    expect(csv.textContent).toContain('vendas.csv');
    expect(csv.textContent).toContain('812 bytes');
    fireEvent.click(csv);
    expect(requests.downloadFile).toHaveBeenLastCalledWith(
      '/api/v1/chats/c1/attachments/att-table',
      'vendas.csv',
    );

    unmount();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:chart');
  });

  it('says so when the chart cannot be fetched', async () => {
    requests.fetchBlob.mockRejectedValue(new Error('Download failed with status 404'));
    renderRun(run({ files: [chart] }));
    expect((await screen.findByTestId('tool-image-failed')).textContent).toBe(
      'Não foi possível carregar a imagem chart.png. Tente baixá-la.',
    );
    expect(screen.queryByRole('img', { name: 'chart.png' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Baixar chart.png' })).toBeTruthy();
  });

  it('shows the code open while the person decides whether it may run', () => {
    renderRun(
      run({
        status: 'awaiting_approval',
        output: undefined,
        durationMs: undefined,
        files: undefined,
        input: { lang: 'js', code: 'console.log(1)' },
      }),
      'awaiting_approval',
    );
    const step = screen.getByTestId('tool-step');
    expect(within(step).getByText('Executar código JavaScript')).toBeTruthy();
    expect(step.querySelector('details')?.open).toBe(true);
    expect(within(step).getByTestId('tool-code').textContent).toBe('console.log(1)');
    expect(
      screen.getByRole('group', { name: 'O santito quer usar Interpretador de código. Permitir?' }),
    ).toBeTruthy();
  });

  it('speaks in the present while the code runs, naming a language it has no name for by its code', () => {
    renderRun(
      run({
        status: 'running',
        output: undefined,
        durationMs: undefined,
        files: undefined,
        input: { lang: 'php', code: 'echo 1;' },
      }),
      'streaming',
    );
    expect(screen.getByText('Executando código PHP…')).toBeTruthy();
    expect(screen.getByTestId('tool-step').querySelector('details')?.open).toBe(false);
  });
});

describe('an answer that drew an image', () => {
  const PROMPT =
    'Um farol ao entardecer sobre rochedos, ondas quebrando, gaivotas no céu, em aquarela suave com tons de laranja';
  const image: Attachment = {
    attachmentId: 'att-draw',
    chatId: 'c1',
    name: 'imagem.png',
    contentType: 'image/png',
    size: 4096,
    createdAt: '2026-01-01T00:00:00.000Z',
    url: '/api/v1/chats/c1/attachments/att-draw',
  };
  const draw = (patch: Partial<ToolPart> = {}): ToolPart => ({
    type: 'tool',
    toolCallId: 'call-draw',
    tool: 'builtin:generate_image',
    title: 'Image generation',
    input: { prompt: PROMPT, size: '1536x1024' },
    status: 'done',
    output: 'Image generated: imagem.png',
    durationMs: 8200,
    files: [image],
    ...patch,
  });
  const renderDraw = (part: ToolPart, status: Message['status'] = 'complete') =>
    renderWithProviders(
      <MessageItem
        message={{
          messageId: 'm5',
          chatId: 'c1',
          parentId: 'q1',
          role: 'assistant',
          content: 'Aqui está o seu farol.',
          status,
          createdAt: '2026-01-01T00:00:00.000Z',
          parts: [part, { type: 'text', text: 'Aqui está o seu farol.' }],
        }}
        actions={actions}
        busy={false}
        canAct
        latest
      />,
    );

  const createObjectURL = vi.fn(() => 'blob:draw');
  beforeAll(() => {
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
  });
  afterEach(() => {
    requests.fetchBlob.mockReset();
    actions.approveTool.mockReset();
  });

  it('says what it drew with a long prompt cut, the whole prompt in its details, and shows the image', async () => {
    requests.fetchBlob.mockResolvedValue({
      blob: new Blob(['png'], { type: 'image/png' }),
      response: new Response(),
    });
    renderDraw(draw());
    const step = screen.getByTestId('tool-step');
    const sentence = within(step).getByText(/^Desenhou “/);
    expect(sentence.textContent).toBe('Desenhou “Um farol ao entardecer sobre rochedos, ondas quebrando,…”');
    expect(within(step).getByRole('img', { name: 'Geração de imagem' })).toBeTruthy();
    expect(within(step).getByText('Descrição da imagem')).toBeTruthy();
    expect(within(step).getByTestId('tool-prompt').textContent).toBe(PROMPT);
    expect(within(step).getByTestId('tool-image-size').textContent).toBe('Tamanho 1536 × 1024');
    expect(within(step).queryByTestId('tool-arguments')).toBeNull();
    expect(step.querySelector('details')?.open).toBe(false);

    // The image shows under the step, outside its closed details, fetched with the token.
    const img = (await within(step).findByRole('img', { name: 'imagem.png' })) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('blob:draw');
    expect(img.closest('details')).toBeNull();
    expect(requests.fetchBlob).toHaveBeenCalledWith('/api/v1/chats/c1/attachments/att-draw', 'chats');
    expect(within(step).getByRole('button', { name: 'Baixar imagem.png' })).toBeTruthy();
  });

  it('shows the whole prompt while the person decides whether it may be drawn', () => {
    renderDraw(
      draw({ status: 'awaiting_approval', output: undefined, durationMs: undefined, files: undefined }),
      'awaiting_approval',
    );
    const step = screen.getByTestId('tool-step');
    expect(within(step).getByText(/^Desenhar “Um farol ao entardecer/)).toBeTruthy();
    expect(step.querySelector('details')?.open).toBe(true);
    expect(within(step).getByTestId('tool-prompt').textContent).toBe(PROMPT);
    const approval = screen.getByRole('group', { name: 'O santito quer usar Geração de imagem. Permitir?' });
    fireEvent.click(within(approval).getByRole('button', { name: 'Permitir' }));
    expect(actions.approveTool).toHaveBeenCalledWith('call-draw', 'allow', false);
  });

  it('says it is drawing while the image is made, and quotes a short prompt whole', () => {
    renderDraw(
      draw({
        status: 'running',
        input: { prompt: 'Um gato' },
        output: undefined,
        durationMs: undefined,
        files: undefined,
      }),
      'streaming',
    );
    expect(screen.getByText('Desenhando…')).toBeTruthy();
    expect(screen.queryByTestId('tool-image-size')).toBeNull();
  });

  it('names what it would have drawn when refused', () => {
    renderDraw(draw({ status: 'denied', input: { prompt: 'Um gato' }, output: undefined, files: undefined }));
    expect(screen.getByText('Desenhar “Um gato”')).toBeTruthy();
  });
});
