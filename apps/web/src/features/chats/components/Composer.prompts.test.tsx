import type { Prompt } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeRequest, routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { Composer } from './Composer.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

function prompt(patch: Partial<Prompt> & Pick<Prompt, 'id' | 'command' | 'title' | 'content'>): Prompt {
  return {
    scope: 'private',
    departmentId: null,
    version: 1,
    variables: [],
    authorName: 'Ana Souza',
    editable: true,
    createdAt: '2026-11-29T10:00:00.000Z',
    updatedAt: '2026-11-29T10:00:00.000Z',
    ...patch,
  };
}

const summary = prompt({
  id: 'p1',
  command: 'resumo',
  title: 'Resumo da reunião',
  content: 'Resuma a reunião em tópicos.',
});
const email = prompt({
  id: 'p2',
  command: 'email',
  title: 'E-mail ao cliente',
  content: 'Escreva um e-mail para {{cliente}} sobre {{assunto}}.',
  variables: ['cliente', 'assunto'],
  scope: 'department',
});
const policy = prompt({
  id: 'p3',
  command: 'politica',
  title: 'Política de férias',
  content: 'Explique a política de férias.',
  scope: 'domain',
  editable: false,
});

function setup(prompts: Prompt[] = [summary, email, policy], props: { promptLibrary?: boolean } = {}) {
  const services = installFakeServices();
  signInSession();
  const list = vi.fn((_request: FakeRequest) => ({
    body: prompts,
    headers: { 'X-Total-Count': String(prompts.length) },
  }));
  routeHttp(services.accountHttp, { 'GET /api/v1/prompts': list });
  const onSend = vi.fn((_text: string, _ids: string[]) => true);
  renderFeature(
    <Composer offline={false} busy={false} onSend={onSend} onStop={vi.fn()} promptLibrary {...props} />,
  );
  const input = screen.getByRole('textbox', { name: 'Mensagem' }) as HTMLTextAreaElement;
  return { input, onSend, list };
}

const options = () => screen.getAllByRole('option');
const activeOption = (input: HTMLElement) => {
  const id = input.getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};

describe('Composer prompt picker', { timeout: 30_000 }, () => {
  it('opens on `/` at the start of the message, announced as a listbox the box controls', async () => {
    const { input, list } = setup();
    await userEvent.type(input, '/');
    const listbox = await screen.findByRole('listbox', { name: 'Prompts' }, { timeout: 10_000 });
    expect(input.getAttribute('aria-controls')).toBe(listbox.id);
    expect(options()).toHaveLength(3);
    expect(activeOption(input)?.textContent).toContain('/resumo');
    expect(options()[0]?.getAttribute('aria-selected')).toBe('true');
    expect(within(options()[1] as HTMLElement).getByText('Departamento')).toBeTruthy();
    expect(within(options()[2] as HTMLElement).getByText('Domínio')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('3 prompts');
    // One read of the whole library, filtered as the person types.
    await userEvent.type(input, 'e');
    expect(list).toHaveBeenCalledTimes(1);
    expect(list.mock.calls[0]?.[0].query.limit).toBe('200');
  });

  it('filters by command and by title as the person types', async () => {
    const { input } = setup();
    await userEvent.type(input, '/ema');
    await screen.findByRole('listbox', {}, { timeout: 10_000 });
    expect(options().map((o) => o.textContent)).toEqual([expect.stringContaining('/email')]);
    await userEvent.clear(input);
    await userEvent.type(input, '/ferias');
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(options()[0]?.textContent).toContain('Política de férias');
  });

  it('does not open for a `/` inside a line, nor where the library is off', async () => {
    const { input } = setup();
    await userEvent.type(input, 'veja /resumo');
    expect(screen.queryByTestId('prompt-picker')).toBeNull();
    expect(input.hasAttribute('aria-controls')).toBe(false);
  });

  it('stays closed without the library (an embedded chat)', async () => {
    const { input, list } = setup(undefined, { promptLibrary: false });
    await userEvent.type(input, '/');
    expect(screen.queryByTestId('prompt-picker')).toBeNull();
    expect(input.hasAttribute('aria-autocomplete')).toBe(false);
    expect(list).not.toHaveBeenCalled();
  });

  it('moves with the arrows, wraps around, and Enter puts a prompt without variables in the box', async () => {
    const { input, onSend } = setup();
    await userEvent.type(input, 'Oi');
    await userEvent.type(input, '{Shift>}{Enter}{/Shift}/');
    await screen.findByRole('listbox', {}, { timeout: 10_000 });
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeOption(input)?.textContent).toContain('/politica');
    await userEvent.keyboard('{ArrowDown}');
    expect(activeOption(input)?.textContent).toContain('/resumo');
    await userEvent.keyboard('{ArrowUp}');
    expect(activeOption(input)?.textContent).toContain('/politica');
    await userEvent.keyboard('{Enter}');
    expect(input.value).toBe('Oi\nExplique a política de férias.');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input.hasAttribute('aria-activedescendant')).toBe(false);
    expect(document.activeElement).toBe(input);
    expect(input.selectionStart).toBe(input.value.length);
  });

  it('chooses with Tab too, and with the mouse', async () => {
    const { input } = setup();
    await userEvent.type(input, '/res');
    await screen.findByRole('listbox', {}, { timeout: 10_000 });
    await userEvent.keyboard('{Tab}');
    expect(input.value).toBe('Resuma a reunião em tópicos.');

    await userEvent.clear(input);
    await userEvent.type(input, '/');
    await screen.findByRole('listbox', {}, { timeout: 10_000 });
    fireEvent.mouseMove(options()[2] as HTMLElement);
    expect(activeOption(input)?.textContent).toContain('/politica');
    await userEvent.click(options()[2] as HTMLElement);
    expect(input.value).toBe('Explique a política de férias.');
  });

  it('asks for the variables in a small form, the first one focused, and inserts the filled text without sending', async () => {
    const { input, onSend } = setup();
    await userEvent.type(input, '/email');
    await screen.findByRole('listbox', {}, { timeout: 10_000 });
    await userEvent.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: 'Preencha “E-mail ao cliente”' });
    const [cliente, assunto] = within(form).getAllByRole('textbox') as HTMLInputElement[];
    await waitFor(() => expect(document.activeElement).toBe(cliente));
    expect(within(form).getByLabelText('cliente')).toBe(cliente);
    expect(within(form).getByLabelText('assunto')).toBe(assunto);
    await userEvent.keyboard('Acme');
    await userEvent.type(assunto as HTMLInputElement, 'a proposta{Enter}');
    expect(input.value).toBe('Escreva um e-mail para Acme sobre a proposta.');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByTestId('prompt-variables')).toBeNull();
    expect(document.activeElement).toBe(input);

    // Sending stays the person's act.
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('Escreva um e-mail para Acme sobre a proposta.', []);
  });

  it('keeps the placeholder of a variable left empty', async () => {
    const { input } = setup();
    await userEvent.type(input, '/email');
    await screen.findByRole('listbox', {}, { timeout: 10_000 });
    await userEvent.keyboard('{Enter}');
    const form = await screen.findByRole('form');
    await waitFor(() => expect(document.activeElement?.tagName).toBe('INPUT'));
    await userEvent.keyboard('Acme');
    await userEvent.click(within(form).getByRole('button', { name: 'Inserir' }));
    expect(input.value).toBe('Escreva um e-mail para Acme sobre {{assunto}}.');
  });

  it('Escape in the variables form goes back to the text as it was', async () => {
    const { input } = setup();
    await userEvent.type(input, '/email');
    await screen.findByRole('listbox', {}, { timeout: 10_000 });
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('form');
    await waitFor(() => expect(document.activeElement?.tagName).toBe('INPUT'));
    await userEvent.keyboard('Acme{Escape}');
    expect(screen.queryByTestId('prompt-picker')).toBeNull();
    expect(input.value).toBe('/email');
    expect(document.activeElement).toBe(input);
  });

  it('Escape closes the list and leaves the text; a new `/` opens it again', async () => {
    const { input, onSend } = setup();
    await userEvent.type(input, '/res');
    await screen.findByRole('listbox', {}, { timeout: 10_000 });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('prompt-picker')).toBeNull();
    expect(input.value).toBe('/res');
    await userEvent.type(input, 'u');
    expect(screen.queryByTestId('prompt-picker')).toBeNull();
    // Enter now sends what was typed.
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('/resu', []);
    await userEvent.type(input, '/');
    expect(await screen.findByRole('listbox', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('says when nothing matches, links to the library, and lets Enter send the text', async () => {
    const { input, onSend } = setup();
    await userEvent.type(input, '/xyz');
    const empty = await screen.findByTestId('prompt-picker-empty', {}, { timeout: 10_000 });
    expect(empty.textContent).toContain('Nenhum prompt encontrado');
    expect(screen.getByRole('status').textContent).toBe('Nenhum prompt encontrado');
    const manage = screen.getByRole('link', { name: 'Gerenciar prompts' });
    expect(manage.getAttribute('href')).toBe('/settings?tab=prompts');
    expect(screen.queryByRole('listbox')).toBeNull();
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('/xyz', []);
  });

  it('explains an empty library', async () => {
    const { input } = setup([]);
    await userEvent.type(input, '/');
    expect(
      await screen.findByText(
        'Crie prompts em Gerenciar prompts para usá-los aqui com /.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
  });

  it('shows that the library is loading, and Enter meanwhile does not send the `/query`', async () => {
    const services = installFakeServices();
    signInSession();
    let answer: (value: { body: Prompt[] }) => void = () => {};
    routeHttp(services.accountHttp, {
      'GET /api/v1/prompts': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    const onSend = vi.fn(() => true);
    renderFeature(<Composer offline={false} busy={false} onSend={onSend} onStop={vi.fn()} promptLibrary />);
    const input = screen.getByRole('textbox', { name: 'Mensagem' });
    await userEvent.type(input, '/res');
    expect(await screen.findByText('Carregando prompts…', {}, { timeout: 10_000 })).toBeTruthy();
    await userEvent.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    answer({ body: [summary] });
    expect(await screen.findByRole('option')).toBeTruthy();
  });

  it('says when the library could not be read', async () => {
    const services = installFakeServices();
    signInSession();
    routeHttp(services.accountHttp, {
      'GET /api/v1/prompts': () => ({ status: 403, code: 'FORBIDDEN', message: 'no' }),
    });
    renderFeature(
      <Composer offline={false} busy={false} onSend={vi.fn(() => true)} onStop={vi.fn()} promptLibrary />,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Mensagem' }), '/');
    expect(
      await screen.findByText('Não foi possível carregar os prompts.', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
  });
});
