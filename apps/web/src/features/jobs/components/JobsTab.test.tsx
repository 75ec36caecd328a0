import type { Job, JobRun } from '@assistente/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { JobsTab } from './JobsTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 10_000 };

const run = (patch: Partial<JobRun>): JobRun => ({
  id: 'run-0',
  job: 'governance.retention',
  trigger: 'schedule',
  by: null,
  status: 'ok',
  startedAt: '2026-11-28T03:00:00.000Z',
  finishedAt: '2026-11-28T03:00:02.000Z',
  counts: {},
  error: null,
  ...patch,
});

type Refusal = { status: number; code: string; message: string };

/**
 * The jobs service: a manual run answers 202 running, and the list reports it running for
 * `readsWhileRunning` reads, then done with its counts.
 */
function serve(opts: { refuse?: Refusal; readsWhileRunning?: number } = {}) {
  const services = installFakeServices();
  signInSession({ role: 'SuperAdmin' });
  const posts: string[] = [];
  let reads = 0;
  let manual: JobRun | null = null;
  const jobs = (): Job[] => [
    {
      name: 'governance.retention',
      everyMs: 86_400_000,
      lastRun: manual ?? run({ counts: { domains: 3, chats: 0, messages: 0, files: 0 } }),
      nextRunAt: '2026-11-30T03:00:00.000Z',
    },
    {
      name: 'chats.purge-drafts',
      everyMs: 600_000,
      lastRun: run({
        id: 'run-d',
        job: 'chats.purge-drafts',
        status: 'failed',
        error: 'connection terminated',
      }),
      nextRunAt: null,
    },
    { name: 'reports.weekly', everyMs: 3_600_000, lastRun: null, nextRunAt: null },
  ];
  routeHttp(services.accountHttp, {
    'GET /api/v1/jobs': () => {
      if (manual?.status === 'running' && ++reads > (opts.readsWhileRunning ?? 1))
        manual = {
          ...manual,
          status: 'ok',
          finishedAt: '2026-11-29T12:00:03.000Z',
          counts: { domains: 2, apiLogs: 0, files: 5, messages: 340, chats: 12 },
        };
      return { body: jobs() };
    },
    'POST /api/v1/jobs/governance.retention/run': () => {
      posts.push('governance.retention');
      if (opts.refuse) return opts.refuse;
      manual = run({
        id: 'run-1',
        trigger: 'manual',
        by: 'ana@acme.com',
        status: 'running',
        startedAt: '2026-11-29T12:00:00.000Z',
        finishedAt: null,
      });
      return { body: manual };
    },
  });
  renderFeature(<JobsTab />);
  return { posts };
}

const retentionRow = async () =>
  (await screen.findAllByTestId('job-row', {}, WAIT)).find(
    (row) => row.getAttribute('data-job') === 'governance.retention',
  ) as HTMLElement;

describe('JobsTab', { timeout: 30_000 }, () => {
  it('lists every job by name, period, next run and last run, with a failure’s reason', async () => {
    serve();
    const rows = await screen.findAllByTestId('job-row', {}, WAIT);
    expect(rows.map((row) => row.getAttribute('data-job'))).toEqual([
      'governance.retention',
      'chats.purge-drafts',
      'reports.weekly',
    ]);
    const [retention, drafts, unknown] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(retention).getByText('Retenção de dados')).toBeTruthy();
    expect(within(retention).getByText(/^Uma vez por dia · Próxima execução: /)).toBeTruthy();
    // What a run did not touch is left out of its counts; where it only looked, it did nothing.
    expect(within(retention).getByTestId('run-counts').textContent).toBe('Nada a fazer');
    expect(within(drafts).getByText('Limpeza de rascunhos abandonados')).toBeTruthy();
    expect(within(drafts).getByText('A cada 10 minutos · Próxima execução: ainda não agendada')).toBeTruthy();
    expect(within(drafts).getByText('Falhou')).toBeTruthy();
    expect(within(drafts).getByTestId('run-error').textContent).toBe('connection terminated');
    // A job the interface does not know keeps its scheduler name.
    expect(within(unknown).getAllByText('reports.weekly')).toHaveLength(2);
    expect(within(unknown).getByText('Ainda não executada')).toBeTruthy();
  });

  it('runs retention after a confirmation and follows the run until its counts are in', async () => {
    const { posts } = serve({ readsWhileRunning: 1 });
    const row = await retentionRow();
    await userEvent.click(within(row).getByRole('button', { name: 'Executar agora: Retenção de dados' }));
    const dialog = await screen.findByRole('dialog', { name: 'Executar Retenção de dados agora?' }, WAIT);
    expect(posts).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Executar e excluir' }));
    await waitFor(() => expect(posts).toHaveLength(1), WAIT);
    // Running: the button is busy and the badge says so, until a later read finds it done.
    await waitFor(() => expect(within(row).getByText('Em execução')).toBeTruthy(), WAIT);
    await waitFor(
      () =>
        expect(within(row).getByTestId('run-counts').textContent).toBe(
          '12 conversas, 340 mensagens, 5 arquivos, em 2 organizações',
        ),
      WAIT,
    );
    expect(within(row).getByText('Concluída')).toBeTruthy();
    expect(within(row).getByText('executada agora por um administrador')).toBeTruthy();
  });

  it('says so when the job is already running, and cancelling sends nothing', async () => {
    const { posts } = serve({ refuse: { status: 409, code: 'CONFLICT', message: 'already running' } });
    const row = await retentionRow();
    const button = within(row).getByRole('button', { name: 'Executar agora: Retenção de dados' });
    await userEvent.click(button);
    let dialog = await screen.findByRole('dialog', { name: 'Executar Retenção de dados agora?' }, WAIT);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
    expect(posts).toHaveLength(0);

    await userEvent.click(button);
    dialog = await screen.findByRole('dialog', { name: 'Executar Retenção de dados agora?' }, WAIT);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Executar e excluir' }));
    expect((await within(row).findByTestId('run-job-error', {}, WAIT)).textContent).toBe(
      'Esta tarefa já está em execução: acompanhe o andamento aqui.',
    );
    expect(posts).toHaveLength(1);
  });
});
