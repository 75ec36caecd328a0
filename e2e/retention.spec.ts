import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { json, simpleChatGpt } from '../apps/server/src/test/chat-exports.ts';
import { bearerOf, chatsApiOf } from './fixtures/api.ts';
import { chatPeople } from './fixtures/chat-people.ts';
import { people } from './fixtures/env.ts';
import { exclusively } from './fixtures/exclusive.ts';
import { choose, confirm, rowAction, screenshot } from './pages/admin.ts';
import { ChatsPage, isMobile, shot, signInAs, signInElsewhere, tag } from './pages/chats.ts';

// Retention (docs/ARCHITECTURE.md#governance), as an organisation meets it: its Admin sets how long
// chats, files and visitors' chats are kept, with a stricter rule for one department; a SuperAdmin
// runs the job now and reads what it deleted; a person of the organisation finds the rule in their
// chats list; and the Admin puts that person under legal hold. Each project has a domain of its own.

test.describe.configure({ timeout: 240_000 });

const RETENTION_JOB = 'governance.retention';

interface JobRun {
  id: string;
  status: string;
  counts: Record<string, number>;
}

/** How the jobs list says a run's counts (the words of jobs.counts in pt-BR). */
const WORDS: Record<string, [string, string]> = {
  chats: ['conversa', 'conversas'],
  messages: ['mensagem', 'mensagens'],
  files: ['arquivo', 'arquivos'],
};

/** A run as the SuperAdmin's API reads it, by id. */
async function readRun(request: APIRequestContext, id: string): Promise<JobRun> {
  const res = await request.get('/api/v1/jobs', {
    headers: await bearerOf(request, people.superAdmin.email),
  });
  expect(res.ok(), await res.text()).toBe(true);
  const jobs = (await res.json()) as Array<{ name: string; lastRun: JobRun | null }>;
  const run = jobs.find((job) => job.name === RETENTION_JOB)?.lastRun;
  expect(run?.id).toBe(id);
  return run as JobRun;
}

/** A chat of 2023 imported as `email` (a ChatGPT export): older than any rule here. */
async function importOldChat(request: APIRequestContext, email: string, title: string): Promise<void> {
  const res = await request.post('/api/v1/chats/import', {
    headers: await bearerOf(request, email),
    multipart: {
      file: {
        name: 'conversations.json',
        mimeType: 'application/json',
        buffer: json([simpleChatGpt(`old-${title}`, title)]),
      },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  expect(await res.json()).toMatchObject({ imported: 1 });
}

/** A department of the Admin's domain (made through the API, as the departments page would). */
async function makeDepartment(request: APIRequestContext, adminEmail: string, name: string): Promise<void> {
  const res = await request.post('/api/v1/department', {
    headers: await bearerOf(request, adminEmail),
    data: { displayName: name },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/**
 * Runs retention now from the jobs list and waits for the run it started to end; answers that run.
 * The other project's SuperAdmin may be running it at the same moment (409): then that run is
 * followed to its end and the job asked again, so the run read here began after this test's chat
 * was made.
 */
async function runRetentionNow(page: Page, row: Locator): Promise<JobRun> {
  const summary = row.getByTestId('run-summary');
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await expect(row.getByRole('button', { name: /^Executar agora/ })).toBeEnabled({ timeout: 60_000 });
    await expect(summary).not.toHaveAttribute('data-status', 'running');
    const answer = page.waitForResponse(
      (r) =>
        r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/v1/jobs/${RETENTION_JOB}/run`,
    );
    await row.getByRole('button', { name: /^Executar agora/ }).click();
    await confirm(page, 'Executar Retenção de dados agora?', 'Executar e excluir');
    const res = await answer;
    if (res.status() === 202) {
      const started = (await res.json()) as JobRun;
      await expect(summary).toHaveAttribute('data-run', started.id);
      await expect(summary).toHaveAttribute('data-status', 'ok', { timeout: 60_000 });
      return started;
    }
    expect(res.status()).toBe(409);
    await expect(row.getByTestId('run-job-error')).toHaveText(
      'Esta tarefa já está em execução: acompanhe o andamento aqui.',
    );
  }
  throw new Error('retention stayed busy for five attempts');
}

test('an Admin sets the rule, a SuperAdmin runs it now, and a person sees it in their chats list', async ({
  page,
  browser,
  request,
}, info) => {
  const mobile = isMobile(info);
  const admin = mobile ? chatPeople.retentionAdminMobile : chatPeople.retentionAdminDesktop;
  const person = mobile ? chatPeople.retentionViewerMobile : chatPeople.retentionViewerDesktop;
  const run = tag();
  const oldTitle = `Conversa antiga ${run}`;
  const department = `Jurídico ${run}`;

  // The person has a chat whose last message is from 2023; the domain has a legal department.
  await importOldChat(request, person.email, oldTitle);
  const personChats = await chatsApiOf(request, person.email);
  expect((await personChats.list()).map((c) => c.title)).toContain(oldTitle);
  await makeDepartment(request, admin.email, department);

  // The Admin: chats 90 days after their last message, files 30, visitors' chats 7; legal 30.
  await signInAs(page, admin);
  await page.goto('/settings?tab=retention');
  const tab = page.getByTestId('retention-tab');
  await expect(tab.getByTestId('run-summary')).toBeVisible();
  await expect(tab.getByRole('textbox', { name: 'Conversas', exact: true })).toHaveAttribute(
    'placeholder',
    'Manter para sempre',
  );
  await tab.getByRole('textbox', { name: 'Conversas', exact: true }).fill('90');
  await tab.getByRole('textbox', { name: 'Arquivos', exact: true }).fill('30');
  await tab.getByRole('textbox', { name: 'Conversas de visitantes', exact: true }).fill('7');
  await tab.getByRole('button', { name: 'Adicionar departamento' }).click();
  const rule = tab.getByTestId('retention-department');
  await choose(page, rule.getByRole('combobox', { name: 'Departamento' }), department);
  // Longer than the domain's is refused here, before anything is sent.
  await rule.getByRole('textbox', { name: /^Dias para as conversas de/ }).fill('120');
  await tab.getByRole('button', { name: 'Salvar' }).click();
  await expect(rule).toContainText('No máximo 90 dias: um departamento só pode ser mais rigoroso');
  await rule.getByRole('textbox', { name: /^Dias para as conversas de/ }).fill('30');
  await tab.getByRole('button', { name: 'Salvar' }).click();
  const asked = page.getByRole('dialog', { name: 'Excluir mais do que antes?' });
  await expect(asked.getByRole('listitem')).toHaveText([
    'Conversas com mais de 90 dias serão excluídas na próxima execução.',
    'Arquivos com mais de 30 dias serão excluídos na próxima execução.',
    'Conversas de visitantes com mais de 7 dias serão excluídas na próxima execução.',
    `Conversas de ${department} com mais de 30 dias serão excluídas na próxima execução.`,
  ]);
  await shot(page, info, 'retention-confirm');
  await asked.getByRole('button', { name: 'Salvar regra' }).click();
  await expect(asked).toHaveCount(0);
  await expect(page.getByText('Regra de retenção salva.')).toBeVisible();
  // Read again, the saved rule is what the form shows.
  await page.reload();
  await expect(tab.getByRole('textbox', { name: 'Conversas', exact: true })).toHaveValue('90');
  await expect(tab.getByRole('textbox', { name: 'Conversas de visitantes', exact: true })).toHaveValue('7');
  await expect(
    tab.getByTestId('retention-department').getByRole('combobox', { name: 'Departamento' }),
  ).toHaveValue(department);
  await screenshot(page, info, 'retention-tab');

  // A SuperAdmin runs retention now and reads what the run deleted.
  const superPage = await signInElsewhere(browser, people.superAdmin, mobile);
  await superPage.goto('/settings?tab=jobs');
  const job = superPage
    .getByTestId('job-row')
    .filter({ has: superPage.getByText(RETENTION_JOB, { exact: true }) });
  await expect(job).toContainText('Retenção de dados');
  await expect(job).toContainText('Uma vez por dia');
  // Run by hand and read back alone: the other project's run would be the job's last run.
  await exclusively('retention-run', async () => {
    const started = await runRetentionNow(superPage, job);
    // The counts in words, as the run wrote them. The other project's run, when it went first, took
    // this project's old chat too: then this one found nothing of it to delete.
    const ended = await readRun(request, started.id);
    for (const [key, [one, many]] of Object.entries(WORDS)) {
      const count = ended.counts[key] ?? 0;
      if (count > 0)
        await expect(job.getByTestId('run-counts')).toContainText(`${count} ${count === 1 ? one : many}`);
    }
    if ((ended.counts.chats ?? 0) === 0)
      await expect(job.getByTestId('run-counts')).not.toContainText('conversa');
    await expect(job).toContainText('executada agora por um administrador');
    await shot(superPage, info, 'retention-jobs-after-run');
    // The person's old chat is gone.
    expect((await personChats.list()).map((c) => c.title)).not.toContain(oldTitle);

    // The Admin's tab shows that run too.
    await page.reload();
    await expect(tab.getByTestId('run-summary')).toHaveAttribute('data-status', 'ok');
    await expect(tab.getByTestId('run-counts')).toBeVisible();
    // Its own domain's counts: never the run's sums over every organisation.
    await expect(tab.getByTestId('run-counts')).not.toContainText('organiza');
  });

  // The person reads the rule in their chats list.
  const personPage = await signInElsewhere(browser, person, mobile);
  const chats = new ChatsPage(personPage, mobile);
  await personPage.goto('/chats');
  await chats.loadedList();
  await expect(personPage.getByTestId('retention-notice')).toHaveText(
    'As conversas são excluídas 90 dias após a última mensagem',
  );
  await shot(personPage, info, 'retention-notice');

  // The Admin puts the person under legal hold: their row says so.
  await page.goto('/users');
  const row = page.getByTestId('user-row').filter({ hasText: person.email });
  await rowAction(page, row, 'Colocar em retenção legal');
  await confirm(page, 'Colocar em retenção legal?', 'Colocar em retenção');
  await expect(row.getByTestId('legal-hold-badge')).toHaveText('Retenção legal');
  await shot(page, info, 'retention-legal-hold');

  // The same screens in English.
  await page.goto('/en/settings?tab=retention');
  await expect(page.getByRole('heading', { name: 'Data retention' })).toBeVisible();
  await expect(
    page.getByTestId('retention-tab').getByRole('textbox', { name: 'Chats', exact: true }),
  ).toHaveValue('90');
  await screenshot(page, info, 'retention-tab-en');
  await personPage.goto('/en/chats');
  await chats.openList();
  await expect(personPage.getByTestId('retention-notice')).toHaveText(
    'Chats are deleted 90 days after their last message',
  );
  await shot(personPage, info, 'retention-notice-en');
  await superPage.goto('/en/settings?tab=jobs');
  await expect(job).toContainText('Data retention');
  await expect(job).toContainText('Once a day');
  await job.scrollIntoViewIfNeeded();
  await shot(superPage, info, 'retention-jobs-en');
  await page.goto('/en/users');
  await expect(
    page.getByTestId('user-row').filter({ hasText: person.email }).getByTestId('legal-hold-badge'),
  ).toHaveText('Legal hold');
  await shot(page, info, 'retention-legal-hold-en');

  await superPage.context().close();
  await personPage.context().close();
});
