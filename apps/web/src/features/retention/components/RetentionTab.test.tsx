import type { JobRun, RetentionSettings, RetentionView, User } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { department, user } from '../../../test/fixtures.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { RetentionTab } from './RetentionTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 10_000 };

const rule = (patch: Partial<RetentionSettings> = {}): RetentionSettings => ({
  chatsDays: null,
  filesDays: null,
  visitorChatsDays: null,
  apiLogsDays: null,
  exemptPinned: false,
  departments: {},
  ...patch,
});

const lastRun: JobRun = {
  id: 'run-1',
  job: 'governance.retention',
  trigger: 'schedule',
  by: null,
  status: 'ok',
  startedAt: '2026-11-28T03:00:00.000Z',
  finishedAt: '2026-11-28T03:00:04.000Z',
  counts: { chats: 12, messages: 340, files: 5 },
  error: null,
};

type Answer = { status: number; code: string; message: string; details?: unknown };

/** A retention service over a rule kept here: a PUT answers what it saved, unless told to refuse. */
function serve(settings: RetentionSettings, opts: { role?: User['role']; refuse?: Answer } = {}) {
  const services = installFakeServices();
  signInSession({ role: opts.role ?? 'Admin' });
  const puts: Array<{ domain: string | undefined; body: RetentionSettings }> = [];
  let saved = settings;
  const view = (): RetentionView => ({ settings: saved, lastRun, nextRunAt: '2026-11-30T03:00:00.000Z' });
  routeHttp(services.accountHttp, {
    'GET /api/v1/settings/retention': () => ({ body: view() }),
    'PUT /api/v1/settings/retention': (request) => {
      const body = request.body as RetentionSettings;
      puts.push({ domain: request.query.domain, body });
      if (opts.refuse) return opts.refuse;
      saved = body;
      return { body: view() };
    },
    'GET /api/v1/department': () => ({
      body: [
        department({ _id: 'dep-legal', displayName: 'Jurídico', domain: 'acme.com' }),
        department({ _id: 'dep-sales', displayName: 'Vendas', domain: 'acme.com' }),
      ],
    }),
    'GET /api/v1/domain': () => ({ body: [] }),
  });
  renderFeature(<RetentionTab caller={user({ role: opts.role ?? 'Admin' })} />);
  return { puts };
}

const field = (name: string) => screen.getByRole('textbox', { name });

async function addDepartment(name: string, days: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Adicionar departamento' }));
  const rows = screen.getAllByTestId('retention-department');
  const row = rows[rows.length - 1] as HTMLElement;
  await userEvent.click(within(row).getByRole('combobox', { name: 'Departamento' }));
  await userEvent.click(await screen.findByRole('option', { name }, WAIT));
  const daysInput = within(row).getByRole('textbox', { name: /^Dias para as conversas de/ });
  await userEvent.type(daysInput, days);
  return row;
}

describe('RetentionTab', { timeout: 30_000 }, () => {
  it('shows the saved rule, the next run and the last run’s counts in words', async () => {
    serve(rule({ chatsDays: 90, exemptPinned: true, departments: { 'dep-legal': { chatsDays: 30 } } }));
    await screen.findByTestId('retention-form', {}, WAIT);
    expect(field('Conversas').getAttribute('value')).toBe('90');
    expect(field('Arquivos').getAttribute('value')).toBe('');
    expect(field('Arquivos').getAttribute('placeholder')).toBe('Manter para sempre');
    expect(screen.getByRole('switch', { name: /Manter conversas fixadas/ })).toHaveProperty('checked', true);
    expect(screen.getByTestId('retention-next-run').textContent).toMatch(/^Próxima execução: /);
    expect(screen.getByTestId('run-counts').textContent).toBe('12 conversas, 340 mensagens, 5 arquivos');
    expect(screen.getByText('Concluída')).toBeTruthy();
    // The department's rule, by its name once the departments are read.
    const row = screen.getByTestId('retention-department');
    await waitFor(
      () =>
        expect(within(row).getByRole('combobox', { name: 'Departamento' })).toHaveProperty(
          'value',
          'Jurídico',
        ),
      WAIT,
    );
    expect(screen.getByText(/no máximo 90 dias \(o prazo da organização\)/)).toBeTruthy();
    // An Admin sees the run; only a SuperAdmin may start one.
    expect(screen.queryByRole('button', { name: /Executar agora/ })).toBeNull();
  });

  it('refuses a department rule longer than the domain’s, and days out of range, before sending', async () => {
    const { puts } = serve(rule({ chatsDays: 90 }));
    await screen.findByTestId('retention-form', {}, WAIT);
    const row = await addDepartment('Jurídico', '120');
    fireEvent.change(field('Arquivos'), { target: { value: '0' } });
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(
      await within(row).findByText(
        'No máximo 90 dias: um departamento só pode ser mais rigoroso que a organização.',
        {},
        WAIT,
      ),
    ).toBeTruthy();
    expect(screen.getByText('Use um número inteiro de dias, de 1 a 3650, ou deixe vazio.')).toBeTruthy();
    // A row without a department is refused too.
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar departamento' }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Escolha um departamento.', {}, WAIT)).toBeTruthy();
    expect(puts).toHaveLength(0);
  });

  it('asks before a rule that deletes more, naming what goes, then saves it', async () => {
    const { puts } = serve(rule({ filesDays: 60 }));
    await screen.findByTestId('retention-form', {}, WAIT);
    await userEvent.type(field('Conversas'), '90');
    await userEvent.clear(field('Arquivos'));
    await userEvent.type(field('Arquivos'), '30');
    await userEvent.type(field('Conversas de visitantes'), '7');
    await addDepartment('Jurídico', '30');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));

    const dialog = await screen.findByRole('dialog', { name: 'Excluir mais do que antes?' }, WAIT);
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Conversas com mais de 90 dias serão excluídas na próxima execução.',
      'Arquivos com mais de 30 dias serão excluídos na próxima execução.',
      'Conversas de visitantes com mais de 7 dias serão excluídas na próxima execução.',
      'Conversas de Jurídico com mais de 30 dias serão excluídas na próxima execução.',
    ]);
    expect(puts).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar regra' }));
    await waitFor(() => expect(puts).toHaveLength(1), WAIT);
    expect(puts[0]?.domain).toBe('acme.com');
    expect(puts[0]?.body).toEqual(
      rule({
        chatsDays: 90,
        filesDays: 30,
        visitorChatsDays: 7,
        departments: { 'dep-legal': { chatsDays: 30 } },
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
  });

  it('saves at once a rule that keeps longer, and cancelling the confirmation sends nothing', async () => {
    const { puts } = serve(rule({ chatsDays: 90 }));
    await screen.findByTestId('retention-form', {}, WAIT);
    await userEvent.clear(field('Conversas'));
    await userEvent.type(field('Conversas'), '120');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts).toHaveLength(1), WAIT);
    expect(puts[0]?.body.chatsDays).toBe(120);
    expect(screen.queryByRole('dialog')).toBeNull();

    // Shorter again: asked, and cancelled.
    await waitFor(() => expect(field('Conversas').getAttribute('value')).toBe('120'), WAIT);
    await userEvent.clear(field('Conversas'));
    await userEvent.type(field('Conversas'), '60');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir mais do que antes?' }, WAIT);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
    expect(puts).toHaveLength(1);
  });

  it('shows the server’s field errors on the department row it refused', async () => {
    const { puts } = serve(rule({ chatsDays: 90, departments: { 'dep-legal': { chatsDays: 30 } } }), {
      refuse: {
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'departments.dep-legal: not a department of this domain',
        details: [
          { path: 'departments.dep-legal', message: 'not a department of this domain', code: 'custom' },
        ],
      },
    });
    await screen.findByTestId('retention-form', {}, WAIT);
    await userEvent.clear(field('Conversas'));
    await userEvent.type(field('Conversas'), '100');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const row = screen.getByTestId('retention-department');
    expect(
      await within(row).findByText(
        'O servidor recusou: este departamento não é desta organização.',
        {},
        WAIT,
      ),
    ).toBeTruthy();
    expect(puts).toHaveLength(1);
  });

  it('gives a SuperAdmin the domain picker and the run button', async () => {
    serve(rule(), { role: 'SuperAdmin' });
    await screen.findByTestId('retention-form', {}, WAIT);
    expect(screen.getByRole('combobox', { name: 'Domínio' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Executar agora: Retenção de dados' })).toBeTruthy();
  });
});
