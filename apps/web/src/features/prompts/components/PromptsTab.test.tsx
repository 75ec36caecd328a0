import type { Prompt, PromptVersion, Role } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeRequest, routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { PromptsTab } from './PromptsTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const AT = '2026-11-29T10:00:00.000Z';
const mine: Prompt = {
  id: 'p1',
  title: 'E-mail ao cliente',
  command: 'email',
  content: 'Escreva para {{cliente}}.',
  scope: 'private',
  departmentId: null,
  version: 2,
  variables: ['cliente'],
  authorName: 'Ana Souza',
  editable: true,
  createdAt: AT,
  updatedAt: AT,
};
const shared: Prompt = {
  ...mine,
  id: 'p2',
  title: 'Política de férias',
  command: 'ferias',
  content: 'Explique a política.',
  scope: 'domain',
  version: 1,
  variables: [],
  authorName: 'Bia Admin',
  editable: false,
};
const versions: PromptVersion[] = [
  {
    version: 2,
    title: mine.title,
    command: 'email',
    content: mine.content,
    scope: 'private',
    authorName: 'Ana Souza',
    createdAt: AT,
  },
  {
    version: 1,
    title: mine.title,
    command: 'email',
    content: 'Olá {{cliente}}.',
    scope: 'private',
    authorName: 'Ana Souza',
    createdAt: AT,
  },
];

type Routes = Parameters<typeof routeHttp>[1];

function setup(role: Role = 'Viewer', prompts: Prompt[] = [mine, shared], routes: Routes = {}) {
  const services = installFakeServices();
  signInSession({ role });
  const list = vi.fn((_request: FakeRequest) => ({
    body: prompts,
    headers: { 'X-Total-Count': String(prompts.length) },
  }));
  routeHttp(services.accountHttp, { 'GET /api/v1/prompts': list, ...routes });
  const view = renderFeature(<PromptsTab />);
  return { list, view, http: services.accountHttp };
}

const rows = () => screen.findAllByTestId('prompt-row', {}, { timeout: 10_000 });
const openMenu = async (row: HTMLElement, title: string) =>
  fireEvent.click(within(row).getByRole('button', { name: `Ações de ${title}` }));

describe('PromptsTab', { timeout: 30_000 }, () => {
  it('lists each prompt with its command, scope, author and version; another’s is read-only', async () => {
    setup();
    const [first, second] = await rows();
    const a = within(first as HTMLElement);
    expect(a.getByText('E-mail ao cliente')).toBeTruthy();
    expect(a.getByText('/email')).toBeTruthy();
    expect(a.getByText('Pessoal')).toBeTruthy();
    expect(a.getByText('Ana Souza')).toBeTruthy();
    expect(a.getByText('v2')).toBeTruthy();
    expect(a.queryByText('Somente leitura')).toBeNull();
    const b = within(second as HTMLElement);
    expect(b.getByText('Domínio')).toBeTruthy();
    expect(b.getByText('Somente leitura')).toBeTruthy();

    await openMenu(second as HTMLElement, 'Política de férias');
    expect(await screen.findByRole('menuitem', { name: 'Versões' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Editar' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Excluir' })).toBeNull();
  });

  it('asks the server for a scope and a search', async () => {
    const { list } = setup();
    await rows();
    fireEvent.click(screen.getByRole('radio', { name: 'Departamento' }));
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith(
        expect.objectContaining({ query: expect.objectContaining({ scope: 'department' }) }),
      ),
    );
    fireEvent.change(screen.getByRole('searchbox', { name: 'Pesquisar' }), { target: { value: 'férias' } });
    await waitFor(() =>
      expect(list.mock.lastCall?.[0].query).toMatchObject({ scope: 'department', q: 'férias' }),
    );
  });

  it('explains `/` in the composer when the library is empty', async () => {
    setup('Viewer', []);
    expect(await screen.findByText('Nenhum prompt ainda', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText(/use-o em qualquer chat: digite \/ no começo da mensagem/)).toBeTruthy();
  });

  it('says when the list could not be read', async () => {
    setup('Viewer', [], {
      'GET /api/v1/prompts': () => ({ status: 500, code: 'INTERNAL', message: 'boom' }),
    });
    expect(
      await screen.findByText('Não foi possível carregar os prompts', {}, { timeout: 10_000 }),
    ).toBeTruthy();
  });

  it('creates a private prompt: the command follows the title, the variables show as they are typed', async () => {
    const post = vi.fn((request: FakeRequest) => ({
      body: { ...mine, ...(request.body as object), id: 'p9', version: 1 },
    }));
    setup('Viewer', [], { 'POST /api/v1/prompts': post });
    fireEvent.click(await screen.findByTestId('prompt-create', {}, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo prompt' });
    const d = within(dialog);
    // A Viewer writes only their own prompts.
    const scope = d.getByTestId('prompt-scope-select') as HTMLSelectElement;
    expect([...scope.options].map((o) => o.value)).toEqual(['private']);
    expect(d.getByText(/Prompts do departamento são para Editores/)).toBeTruthy();

    fireEvent.change(d.getByTestId('prompt-title'), { target: { value: 'Ata de reunião' } });
    expect((d.getByTestId('prompt-command') as HTMLInputElement).value).toBe('ata-de-reuniao');
    expect(d.getByText('Nenhum campo a preencher.')).toBeTruthy();
    fireEvent.change(d.getByTestId('prompt-content'), {
      target: { value: 'Resuma a reunião com {{cliente}} em {{ data }}.' },
    });
    const found = d.getByTestId('prompt-variables-found');
    expect(within(found).getByText('cliente')).toBeTruthy();
    expect(within(found).getByText('data')).toBeTruthy();
    fireEvent.click(d.getByRole('button', { name: 'Criar prompt' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]?.[0].body).toEqual({
      title: 'Ata de reunião',
      command: 'ata-de-reuniao',
      content: 'Resuma a reunião com {{cliente}} em {{ data }}.',
      scope: 'private',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('checks the fields before asking, and shows a taken command at its field', async () => {
    const post = vi.fn(() => ({
      status: 409,
      code: 'CONFLICT',
      message: 'command: /ata is already used by another prompt of this scope',
    }));
    setup('Viewer', [], { 'POST /api/v1/prompts': post });
    fireEvent.click(await screen.findByTestId('prompt-create', {}, { timeout: 10_000 }));
    const d = within(await screen.findByRole('dialog'));
    fireEvent.change(d.getByTestId('prompt-title'), { target: { value: 'Ata' } });
    fireEvent.change(d.getByTestId('prompt-command'), { target: { value: '/9x' } });
    fireEvent.click(d.getByRole('button', { name: 'Criar prompt' }));
    expect(
      await d.findByText('Use letras minúsculas, números e hífens, começando com uma letra.'),
    ).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(d.getByTestId('prompt-command'), { target: { value: '/Ata' } });
    expect((d.getByTestId('prompt-command') as HTMLInputElement).value).toBe('ata');
    fireEvent.change(d.getByTestId('prompt-content'), { target: { value: 'Texto' } });
    fireEvent.click(d.getByRole('button', { name: 'Criar prompt' }));
    expect(await d.findByText('Outro prompt do mesmo público já usa este comando.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('offers an Admin every scope, and shows a refusal of the scope at its field', async () => {
    const post = vi.fn(() => ({
      status: 403,
      code: 'FORBIDDEN',
      message: 'Only Admins write prompts for the whole domain',
    }));
    setup('Admin', [], { 'POST /api/v1/prompts': post });
    fireEvent.click(await screen.findByTestId('prompt-create', {}, { timeout: 10_000 }));
    const d = within(await screen.findByRole('dialog'));
    const scope = d.getByTestId('prompt-scope-select') as HTMLSelectElement;
    expect([...scope.options].map((o) => o.value)).toEqual(['private', 'department', 'domain']);
    fireEvent.change(d.getByTestId('prompt-title'), { target: { value: 'Regras' } });
    fireEvent.change(d.getByTestId('prompt-content'), { target: { value: 'As regras.' } });
    fireEvent.change(scope, { target: { value: 'domain' } });
    expect(d.getByText('Toda a organização vê e usa.')).toBeTruthy();
    fireEvent.click(d.getByRole('button', { name: 'Criar prompt' }));
    expect(await d.findByText('Seu papel não permite salvar prompts para este público.')).toBeTruthy();
  });

  it('an Editor may write for their department but not the domain', async () => {
    setup('Editor', []);
    fireEvent.click(await screen.findByTestId('prompt-create', {}, { timeout: 10_000 }));
    const d = within(await screen.findByRole('dialog'));
    const scope = d.getByTestId('prompt-scope-select') as HTMLSelectElement;
    expect([...scope.options].map((o) => o.value)).toEqual(['private', 'department']);
  });

  it('edits only what changed, as a new version', async () => {
    const put = vi.fn((request: FakeRequest) => ({
      body: { ...mine, ...(request.body as object), version: 3 },
    }));
    setup('Viewer', [mine], { 'PUT /api/v1/prompts/p1': put });
    const [row] = await rows();
    await openMenu(row as HTMLElement, 'E-mail ao cliente');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const d = within(await screen.findByRole('dialog', { name: 'Editar prompt' }));
    expect((d.getByTestId('prompt-command') as HTMLInputElement).value).toBe('email');
    fireEvent.change(d.getByTestId('prompt-content'), {
      target: { value: 'Escreva para {{cliente}} hoje.' },
    });
    fireEvent.click(d.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[0].body).toEqual({ content: 'Escreva para {{cliente}} hoje.' });
  });

  it('shows the versions with their content and restores an older one after confirming', async () => {
    const restore = vi.fn(() => ({ body: { ...mine, version: 3, content: 'Olá {{cliente}}.' } }));
    setup('Viewer', [mine], {
      'GET /api/v1/prompts/p1/versions': () => ({ body: versions }),
      'POST /api/v1/prompts/p1/versions/1/restore': restore,
    });
    const [row] = await rows();
    await openMenu(row as HTMLElement, 'E-mail ao cliente');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Versões' }));
    const items = await screen.findAllByTestId('prompt-version-item', {}, { timeout: 10_000 });
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByText('Atual')).toBeTruthy();
    expect(within(items[0] as HTMLElement).queryByRole('button', { name: /Restaurar/ })).toBeNull();
    expect(within(items[1] as HTMLElement).getByText('Olá {{cliente}}.')).toBeTruthy();
    fireEvent.click(within(items[1] as HTMLElement).getByRole('button', { name: 'Restaurar a versão 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Restaurar a versão 1?' });
    expect(within(confirm).getByText(/volta como uma nova versão \(3\)/)).toBeTruthy();
    expect(restore).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Restaurar' }));
    await waitFor(() => expect(restore).toHaveBeenCalled());
  });

  it('shows why a restore failed and keeps the confirmation open', async () => {
    setup('Viewer', [mine], {
      'GET /api/v1/prompts/p1/versions': () => ({ body: versions }),
      'POST /api/v1/prompts/p1/versions/1/restore': () => ({
        status: 404,
        code: 'NOT_FOUND',
        message: 'gone',
      }),
    });
    const [row] = await rows();
    await openMenu(row as HTMLElement, 'E-mail ao cliente');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Versões' }));
    const items = await screen.findAllByTestId('prompt-version-item', {}, { timeout: 10_000 });
    fireEvent.click(within(items[1] as HTMLElement).getByRole('button', { name: 'Restaurar a versão 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Restaurar a versão 1?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Restaurar' }));
    expect(await within(confirm).findByRole('alert')).toBeTruthy();
  });

  it('a read-only prompt’s versions have no restore', async () => {
    setup('Viewer', [shared], {
      'GET /api/v1/prompts/p2/versions': () => ({
        body: [{ ...versions[1], content: 'Explique a política.' }],
      }),
    });
    const [row] = await rows();
    await openMenu(row as HTMLElement, 'Política de férias');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Versões' }));
    await screen.findAllByTestId('prompt-version-item', {}, { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: /Restaurar/ })).toBeNull();
  });

  it('deletes after confirming, and the list is read again', async () => {
    const remove = vi.fn(() => ({ body: undefined }));
    const { list } = setup('Viewer', [mine], { 'DELETE /api/v1/prompts/p1': remove });
    const [row] = await rows();
    await openMenu(row as HTMLElement, 'E-mail ao cliente');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const confirm = await screen.findByRole('dialog', { name: 'Excluir prompt?' });
    expect(within(confirm).getByText(/todas as suas versões serão excluídos/)).toBeTruthy();
    const before = list.mock.calls.length;
    fireEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(remove).toHaveBeenCalled());
    await waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(before));
  });
});
