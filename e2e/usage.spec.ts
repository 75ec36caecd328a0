import { expect, test } from '@playwright/test';
import { FIXTURE_MODEL } from './fixtures/chat-people.ts';
import { byProject, people } from './fixtures/env.ts';
import { choose, runTag, screenshot } from './pages/admin.ts';
import { ChatsPage, downloadedText, isMobile, signInAs } from './pages/chats.ts';

test.describe.configure({ timeout: 120_000 });

// The report's days are the domain's (America/Sao_Paulo by default); the page's "this month" is the
// browser's. Both the same zone, so a run just after midnight UTC still finds its chat in range.
test.use({ timezoneId: 'America/Sao_Paulo' });

test('Usage → Spend: an Admin sees what a chat cost, by day and by model, switches grouping and downloads the CSV', async ({
  page,
}, info) => {
  const admin = byProject(info.project.name, people.admin, people.apiKeysAdminMobile);
  const mobile = isMobile(info);
  await signInAs(page, admin);

  // One chat answer is one settled call in the ledger (the fixture model has no price).
  const chats = new ChatsPage(page, mobile);
  await chats.openNew();
  await chats.startChat(`Quanto custa esta conversa? ${runTag(info)}`);
  await chats.waitAnswerDone();

  await page.goto('/usage');
  await expect(page.getByRole('tab', { name: 'Gastos' })).toHaveAttribute('aria-selected', 'true');
  const calls = page.getByTestId('usage-total-calls');
  // The ledger is written after the answer's end: the first look may come before it.
  await expect(async () => {
    await page.reload();
    await expect(calls).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId('usage-total-cost')).toContainText('US$');
  await expect(page.getByTestId('usage-total-input')).toBeVisible();
  await expect(page.getByTestId('usage-total-output')).toBeVisible();
  // Unpriced calls are said so, never shown as free.
  await expect(page.getByTestId('usage-unpriced')).toContainText('sem preço');

  // The chart, loaded in its own chunk, draws today's tokens.
  const chart = page.getByTestId('usage-chart');
  await expect(chart).toBeVisible();
  await page.getByTestId('usage-chart-metric').getByText('Tokens', { exact: true }).click();
  await expect(chart.locator('.recharts-bar-rectangle path').first()).toBeVisible();

  // By model (the default grouping): the fixture model's row.
  const modelRow = page.getByTestId('usage-row').filter({ hasText: FIXTURE_MODEL });
  await expect(modelRow).toBeVisible();
  await expect(modelRow).toContainText('Sem preço');
  await screenshot(page, info, 'usage-spend');

  // By source: the chat's answer is a chat call, named in the reader's language.
  const groupBy = page.getByTestId('usage-group-by');
  if (mobile) await choose(page, groupBy, 'Origem');
  else await groupBy.getByText('Origem', { exact: true }).click();
  await expect(page.getByTestId('usage-row').filter({ hasText: /^Chat/ }).first()).toBeVisible();

  // The CSV of what the table shows.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('usage-download').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^usage-source-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await downloadedText(download);
  expect(csv.split('\r\n')[0]).toBe('key,label,calls,input_tokens,output_tokens,cost_usd,unpriced_calls');
  expect(csv).toContain('\r\nchat,chat,');

  if (mobile) {
    const fits = await page.evaluate(
      () => (document.scrollingElement?.scrollWidth ?? 0) <= window.innerWidth,
    );
    expect(fits).toBe(true);
  }

  // A range the server would refuse is not asked for.
  await choose(page, page.getByTestId('usage-range'), 'Período personalizado');
  await page.getByTestId('usage-from').fill('2026-03-10');
  await page.getByTestId('usage-to').fill('2026-03-01');
  await expect(page.getByTestId('usage-range-problem')).toContainText('não pode ser depois');
  await expect(page.getByTestId('usage-totals')).toHaveCount(0);
});

test('Usage → Prices: a SuperAdmin prices a model, changes the price, and reads its history', async ({
  page,
}, info) => {
  const model = `openai:e2e-price-${runTag(info)}`;
  await signInAs(page, people.superAdmin);
  await page.goto('/usage?tab=prices');
  await expect(page.getByTestId('usage-prices')).toBeVisible();
  await page.getByTestId('price-add').click();
  const dialog = page.getByRole('dialog');
  // A model not named as chats name it is refused before asking.
  await dialog.getByTestId('price-model').fill('sem-provedor');
  await dialog.getByTestId('price-input').fill('2.5');
  await dialog.getByTestId('price-output').fill('10');
  await dialog.getByTestId('price-cached').fill('1.25');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByTestId('price-problem')).toContainText('provedor:modelo');
  await dialog.getByTestId('price-model').fill(model);
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId('price-card').filter({ hasText: model });
  await expect(card).toContainText('Entrada US$ 2,50');
  await expect(card).toContainText('Saída US$ 10,00');
  await expect(card).toContainText('Em cache US$ 1,25');
  await expect(card).toContainText(people.superAdmin.email);

  // A new price from now on; the old one stays in the history.
  await card.getByRole('button', { name: `Ações de ${model}` }).click();
  await page.getByRole('menuitem', { name: 'Alterar preço' }).click();
  await dialog.getByTestId('price-input').fill('3');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('Entrada US$ 3,00');
  await card.getByRole('button', { name: `Ações de ${model}` }).click();
  await page.getByRole('menuitem', { name: 'Histórico' }).click();
  const history = page.getByTestId('price-history');
  await expect(history.locator('tbody tr')).toHaveCount(2);
  await expect(history.locator('tbody tr').first()).toContainText('US$ 3,00');
  await expect(history.locator('tbody tr').last()).toContainText('US$ 2,50');
  if (info.project.name === 'mobile') {
    await page.keyboard.press('Escape');
    const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }
});
