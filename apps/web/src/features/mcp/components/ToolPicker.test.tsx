import type { BuiltinToolInfo, ToolInfo } from '@assistente/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { ToolPicker } from './ToolPicker.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const tool = (name: string, patch: Partial<ToolInfo> = {}): ToolInfo => ({
  ref: `mcp:s1:${name}`,
  serverId: 's1',
  serverName: 'Chamados',
  name,
  title: null,
  description: null,
  readOnly: false,
  decision: 'ask',
  ...patch,
});

const tools: ToolInfo[] = [
  tool('find_ticket', { title: 'Buscar chamado', readOnly: true, decision: 'allow' }),
  tool('close_ticket', { title: 'Fechar chamado' }),
  tool('delete_ticket', { decision: 'deny' }),
  tool('lookup', { ref: 'mcp:s2:lookup', serverId: 's2', serverName: 'CRM' }),
];

const builtin = (name: BuiltinToolInfo['name'], patch: Partial<BuiltinToolInfo> = {}): BuiltinToolInfo => ({
  ref: `builtin:${name}`,
  name,
  readOnly: true,
  decision: 'allow',
  unavailable: null,
  ...patch,
});

const builtins: BuiltinToolInfo[] = [
  builtin('web_search', { unavailable: 'not_configured' }),
  builtin('fetch_page'),
  builtin('knowledge_search', { decision: 'ask' }),
];

function Harness({ initial, onChange }: { initial: string[]; onChange: (refs: string[]) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <ToolPicker
      value={value}
      onChange={(refs) => {
        setValue(refs);
        onChange(refs);
      }}
    />
  );
}

function setup(list: ToolInfo[], initial: string[] = [], builtinList: BuiltinToolInfo[] = builtins) {
  const services = installFakeServices();
  signInSession({}, true);
  const get = vi.fn(async () => ({ tools: list, builtins: builtinList, userServers: false }));
  Object.assign(services.accountHttp, { get });
  const onChange = vi.fn();
  renderFeature(<Harness initial={initial} onChange={onChange} />);
  return { get, onChange };
}

describe('ToolPicker', { timeout: 30_000 }, () => {
  it('lists the tools by server with the policy’s decision; a denied tool cannot be picked', async () => {
    const { get } = setup(tools);
    const chamados = await screen.findByRole('group', { name: 'Chamados' }, { timeout: 10_000 });
    expect(get).toHaveBeenCalledWith('/api/v1/agent/tools', expect.anything());
    expect(screen.getByRole('group', { name: 'CRM' })).toBeTruthy();
    expect(within(chamados).getByRole('checkbox', { name: 'Buscar chamado' })).toBeTruthy();
    expect(
      (within(chamados).getByRole('checkbox', { name: 'delete_ticket' }) as HTMLInputElement).disabled,
    ).toBe(true);
    expect(
      within(chamados)
        .getAllByTestId('tool-decision')
        .map((b) => b.textContent),
    ).toEqual(['Permitida', 'Pergunta antes', 'Bloqueada']);
  });

  it('picks tools one by one, or every tool of a server as one reference', async () => {
    const { onChange } = setup(tools);
    const chamados = await screen.findByRole('group', { name: 'Chamados' }, { timeout: 10_000 });
    fireEvent.click(within(chamados).getByRole('checkbox', { name: 'Fechar chamado' }));
    expect(onChange).toHaveBeenLastCalledWith(['mcp:s1:close_ticket']);
    fireEvent.click(within(chamados).getByRole('checkbox', { name: 'Todas as ferramentas de Chamados' }));
    expect(onChange).toHaveBeenLastCalledWith(['mcp:s1:*']);
    const close = within(chamados).getByRole('checkbox', { name: 'Fechar chamado' }) as HTMLInputElement;
    expect(close.checked).toBe(true);
    expect(close.disabled).toBe(true);
    fireEvent.click(within(chamados).getByRole('checkbox', { name: 'Todas as ferramentas de Chamados' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('keeps a tool no longer offered in view, so it can be taken out', async () => {
    const { onChange } = setup(tools, ['mcp:gone:old_tool']);
    const gone = await screen.findByRole('checkbox', { name: 'mcp:gone:old_tool' }, { timeout: 10_000 });
    fireEvent.click(gone);
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('lists the built-in tools above the servers, with the policy’s decision', async () => {
    setup(tools);
    const own = await screen.findByRole('group', { name: 'Ferramentas do Assistente' }, { timeout: 10_000 });
    expect(within(own).getAllByRole('checkbox')).toHaveLength(3);
    expect(within(own).getByRole('checkbox', { name: 'Pesquisa na web' })).toBeTruthy();
    expect(within(own).getByRole('checkbox', { name: 'Leitura de página' })).toBeTruthy();
    expect(
      within(own).getByText('Pesquisa nas fontes de conhecimento do santito quando precisar.'),
    ).toBeTruthy();
    expect(
      within(own)
        .getAllByTestId('tool-decision')
        .map((b) => b.textContent),
    ).toEqual(['Permitida', 'Permitida', 'Pergunta antes']);
    const groups = screen.getAllByRole('group').map((g) => g.querySelector('legend')?.textContent);
    expect(groups.slice(0, 2)).toEqual(['Ferramentas do Assistente', 'Chamados']);
  });

  it('toggles a built-in tool as builtin:{name}, set up or not yet', async () => {
    const { onChange } = setup(tools, ['mcp:s1:*']);
    const own = await screen.findByRole('group', { name: 'Ferramentas do Assistente' }, { timeout: 10_000 });
    const search = within(own).getByRole('checkbox', { name: 'Pesquisa na web' }) as HTMLInputElement;
    expect(search.disabled).toBe(false);
    fireEvent.click(search);
    expect(onChange).toHaveBeenLastCalledWith(['mcp:s1:*', 'builtin:web_search']);
    expect(search.checked).toBe(true);
    fireEvent.click(search);
    expect(onChange).toHaveBeenLastCalledWith(['mcp:s1:*']);
  });

  it('says web search needs setting up where it is not', async () => {
    setup(tools);
    const own = await screen.findByRole('group', { name: 'Ferramentas do Assistente' }, { timeout: 10_000 });
    const hints = within(own).getAllByTestId('builtin-hint');
    expect(hints.map((h) => h.textContent)).toEqual([
      'A pesquisa na web ainda não foi configurada: um Admin a configura em Integração → Servidores MCP.',
    ]);
  });

  it('says an image model is missing in words about images, each hint beside its own tool', async () => {
    const { onChange } = setup(
      tools,
      [],
      [
        ...builtins,
        builtin('generate_image', { readOnly: false, decision: 'ask', unavailable: 'not_configured' }),
      ],
    );
    const own = await screen.findByRole('group', { name: 'Ferramentas do Assistente' }, { timeout: 10_000 });
    expect(
      within(own)
        .getAllByTestId('builtin-hint')
        .map((h) => h.textContent),
    ).toEqual([
      'A pesquisa na web ainda não foi configurada: um Admin a configura em Integração → Servidores MCP.',
      'Nenhum modelo de imagem configurado: um Admin adiciona um provedor que ofereça um em Configurações → Modelos de IA.',
    ]);
    const draw = within(own).getByRole('checkbox', { name: 'Geração de imagem' }) as HTMLInputElement;
    expect(draw.closest('.mantine-Checkbox-root')?.textContent).toContain(
      'Desenha uma imagem a partir de uma descrição; ela aparece na conversa e fica salva como arquivo.',
    );
    expect(draw.closest('.mantine-Checkbox-root')?.textContent).toContain(
      'Nenhum modelo de imagem configurado',
    );
    // Not set up yet, it may still be picked: answers are offered it once a provider has an image model.
    expect(draw.disabled).toBe(false);
    fireEvent.click(draw);
    expect(onChange).toHaveBeenLastCalledWith(['builtin:generate_image']);
  });

  it('gives no hint for image generation once a provider offers an image model', async () => {
    setup(tools, [], [builtin('generate_image', { readOnly: false, decision: 'ask' })]);
    const own = await screen.findByRole('group', { name: 'Ferramentas do Assistente' }, { timeout: 10_000 });
    expect(within(own).getByRole('checkbox', { name: 'Geração de imagem' })).toBeTruthy();
    expect(within(own).queryByTestId('builtin-hint')).toBeNull();
    expect(within(own).getByTestId('tool-decision').textContent).toBe('Pergunta antes');
  });

  it('offers the code interpreter when the instance has one, asking before each run', async () => {
    const { onChange } = setup(
      tools,
      [],
      [...builtins, builtin('code_interpreter', { readOnly: false, decision: 'ask' })],
    );
    const own = await screen.findByRole('group', { name: 'Ferramentas do Assistente' }, { timeout: 10_000 });
    const code = within(own).getByRole('checkbox', { name: 'Interpretador de código' }) as HTMLInputElement;
    expect(own.textContent).toContain(
      'Executa código em um ambiente isolado, fora do servidor — gráficos e tabelas feitos a partir dos arquivos da conversa voltam como arquivos.',
    );
    expect(
      within(own)
        .getAllByTestId('tool-decision')
        .map((b) => b.textContent),
    ).toEqual(['Permitida', 'Permitida', 'Pergunta antes', 'Pergunta antes']);
    fireEvent.click(code);
    expect(onChange).toHaveBeenLastCalledWith(['builtin:code_interpreter']);
  });

  it('leaves the code interpreter out when the instance has none', async () => {
    setup(tools);
    const own = await screen.findByRole('group', { name: 'Ferramentas do Assistente' }, { timeout: 10_000 });
    expect(within(own).queryByRole('checkbox', { name: 'Interpretador de código' })).toBeNull();
  });

  it('offers the built-in tools without any server, and says how to add servers', async () => {
    setup([]);
    expect(
      await screen.findByText(
        'Nenhum servidor MCP ainda: um Admin adiciona servidores MCP em Integração.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Pesquisa na web' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Pesquisa no conhecimento' })).toBeTruthy();
  });
});
