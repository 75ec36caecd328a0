import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { unzip } from '../apps/server/src/test/zip.ts';
import { byProject, people } from './fixtures/env.ts';
import { choose, dialog, popup, rowAction, runTag, screenshot } from './pages/admin.ts';
import { ChatsPage, isMobile, signInAs, signInElsewhere } from './pages/chats.ts';

// Whole journeys (a chat answered, a ZIP built and read, a person erased): past the default 30 s.
test.describe.configure({ timeout: 120_000 });
test.use({ timezoneId: 'America/Sao_Paulo' });

/** A download's bytes. */
const bytesOf = async (download: import('@playwright/test').Download) =>
  Buffer.concat(await (await download.createReadStream()).toArray());

test('a person downloads a ZIP of their data, and it holds their chat', async ({ page }, info) => {
  const person = byProject(info.project.name, people.exportDesktop, people.exportMobile);
  const question = `Minha conversa para exportar ${runTag(info)}`;
  await signInAs(page, person);
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await chats.startChat(question);
  await chats.waitAnswerDone();

  await page.goto('/settings?tab=data');
  const tab = page.getByTestId('data-export-tab');
  await expect(tab.getByRole('heading', { name: 'Meus dados' })).toBeVisible();
  // What the file holds is said before anyone asks for it.
  await expect(tab.getByTestId('data-export-contents')).toContainText('Markdown');
  await expect(tab.getByTestId('data-export-contents')).toContainText('Suas memórias');
  await screenshot(page, info, 'data-export-tab');

  const downloading = page.waitForEvent('download');
  await tab.getByRole('button', { name: 'Baixar todos os meus dados' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    /^assistente-export-[a-z]+@acme\.test-\d{4}-\d{2}-\d{2}\.zip$/,
  );
  await expect(tab.getByTestId('data-export-status')).toContainText('Pronto:');
  await screenshot(page, info, 'data-export-done');

  const files = await unzip(await bytesOf(download));
  const markdown = [...files.entries()].find(
    ([name, bytes]) =>
      name.startsWith('chats/') && name.endsWith('.md') && bytes.toString('utf8').includes(question),
  );
  expect(markdown, [...files.keys()].join('\n')).toBeDefined();
  const json = files.get(markdown![0].replace(/\.md$/, '.json'));
  expect(JSON.parse(json!.toString('utf8')).messages[0].content).toBe(question);
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
  expect(manifest).toMatchObject({ scope: 'me', subjectId: person.email });
  expect(manifest.totals.chats).toBeGreaterThanOrEqual(1);
});

test('an Admin exports a person (audited), then erases another whose usage stays under a pseudonym', async ({
  page,
  browser,
}, info) => {
  const mobile = isMobile(info);
  const exported = byProject(info.project.name, people.exportDesktop, people.exportMobile);
  const erased = byProject(info.project.name, people.erasedDesktop, people.erasedMobile);

  // The person to erase spends something first: one answered chat is one call in the ledger.
  const theirs = await signInElsewhere(browser, erased, mobile);
  const chats = new ChatsPage(theirs, mobile);
  await chats.openNew();
  await chats.startChat(`Uso que fica ${runTag(info)}`);
  await chats.waitAnswerDone();
  await theirs.context().close();

  await signInAs(page, people.admin);
  await page.goto('/users');
  const search = page.getByRole('searchbox');
  await search.fill(exported.email);
  const row = page.getByTestId('user-row').filter({ hasText: exported.email });
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await rowAction(page, row, 'Exportar dados');
  const ask = dialog(page, `Exportar os dados de ${exported.name}?`);
  await expect(ask).toContainText('registrado no log de auditoria');
  await screenshot(page, info, 'data-export-admin-confirm');
  const downloading = page.waitForEvent('download');
  await ask.getByRole('button', { name: 'Exportar e baixar' }).click();
  const files = await unzip(await bytesOf(await downloading));
  expect(JSON.parse(files.get('manifest.json')!.toString('utf8'))).toMatchObject({
    scope: 'user',
    subjectId: exported.email,
  });
  await expect(ask).toBeHidden();
  await expect(popup(page, 'Dados exportados')).toBeVisible();

  // The audit log names the export, its Admin and whose data it was.
  await page.goto('/settings?tab=audit');
  const entry = page
    .getByTestId('audit-row')
    .filter({ hasText: 'Dados exportados' })
    .filter({ hasText: exported.email })
    .filter({ hasText: people.admin.email });
  await expect(entry.first()).toBeVisible({ timeout: 15_000 });
  await screenshot(page, info, 'data-export-audit');

  // Erasing: the confirmation says what goes and what stays.
  await page.goto('/users');
  await search.fill(erased.email);
  const erasedRow = page.getByTestId('user-row').filter({ hasText: erased.email });
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await rowAction(page, erasedRow, 'Excluir');
  const remove = dialog(page, 'Excluir usuário?');
  await expect(remove).toContainText('as conversas, os arquivos, os prompts e as memórias são apagados');
  await expect(remove).toContainText('pseudônimo');
  await screenshot(page, info, 'data-export-erase-confirm');
  await remove.getByRole('button', { name: 'Excluir', exact: true }).click();
  await expect(remove).toBeHidden();
  await expect(page.getByTestId('user-row')).toHaveCount(0);

  // Their usage is still in the report, under "Usuário excluído <alias>".
  const alias = createHash('sha256').update(`usage:${erased.email}`).digest('hex').slice(0, 8);
  await page.goto('/usage');
  const groupBy = page.getByTestId('usage-group-by');
  await expect(groupBy).toBeVisible({ timeout: 15_000 });
  if (mobile) await choose(page, groupBy, 'Pessoa');
  else await groupBy.getByText('Pessoa', { exact: true }).click();
  await expect(page.getByTestId('usage-row').filter({ hasText: `Usuário excluído ${alias}` })).toBeVisible();
  await expect(page.getByText(erased.email)).toHaveCount(0);
  await screenshot(page, info, 'data-export-usage-pseudonym');
});
