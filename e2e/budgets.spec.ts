import { expect, type Page, test } from '@playwright/test';
import { chatPeople } from './fixtures/chat-people.ts';
import { byProject, people } from './fixtures/env.ts';
import { choose, runTag } from './pages/admin.ts';
import { ChatsPage, isMobile, shot, signInAs, signInElsewhere } from './pages/chats.ts';

test.describe.configure({ timeout: 180_000 });

/** Fills the budget dialog's token limit and warning, then saves. */
async function saveLimits(page: Page, tokens: string, warnAt: string | null) {
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('budget-tokens').fill(tokens);
  if (warnAt !== null) await dialog.getByTestId('budget-warn').fill(warnAt);
  await dialog.getByRole('button', { name: /Criar|Salvar/ }).click();
  await expect(dialog).toBeHidden();
}

test('an Admin sets a budget for one person: at its warning they see the banner, once spent a send is refused with when it resets', async ({
  page,
  browser,
}, info) => {
  const mobile = isMobile(info);
  const admin = byProject(info.project.name, people.admin, people.apiKeysAdminMobile);
  const person = mobile ? chatPeople.budgetMobile : chatPeople.budgetDesktop;

  // The Admin gives the person a daily budget of 4,300 tokens that warns at 1 %: room for one answer's
  // worst case (its question and 4,096 output tokens, held while it runs), whose real use — some
  // fifty tokens from the model fixture — reaches the warning.
  await signInAs(page, admin);
  await page.goto('/usage?tab=budgets');
  await expect(page.getByTestId('usage-budgets')).toBeVisible();
  await page.getByTestId('budget-add').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('budget-scope').getByText('Pessoa', { exact: true }).click();
  const picker = dialog.getByTestId('budget-person');
  await picker.fill(person.name.split(' ')[0] ?? person.name);
  await choose(page, picker, `${person.name} · ${person.email}`);
  await choose(page, dialog.getByTestId('budget-period'), 'Diário');
  await saveLimits(page, '4300', '1');
  const card = page.getByTestId('budget-card').filter({ hasText: person.name });
  await expect(card).toContainText('Diário');
  await expect(card).toContainText('4.300 tokens');

  const viewer = await signInElsewhere(browser, person, mobile);
  try {
    const chats = new ChatsPage(viewer, mobile);
    await chats.openNew();
    await chats.startChat(`Um pouco do meu orçamento ${runTag(info)}`);
    await chats.waitAnswerDone();
    const banner = viewer.getByTestId('budget-banner');
    // The ledger settles just after the answer's end: the banner may need the next reading.
    await expect(async () => {
      await viewer.reload();
      await expect(banner).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 45_000 });
    await expect(banner).toHaveAttribute('data-budget-state', 'warn');
    await expect(banner).toContainText('orçamento diário pessoal');
    await shot(viewer, info, 'budget-banner-warn');
    // Dismissed, it stays away for this period.
    await banner.getByRole('button', { name: 'Dispensar até o próximo período' }).click();
    await expect(banner).toBeHidden();
    await viewer.reload();
    await expect(viewer.getByTestId('composer-input').last()).toBeVisible();
    await expect(banner).toBeHidden();

    // The Admin lowers the limit below what was used: the budget is spent.
    await card.getByRole('button', { name: /Ações do orçamento/ }).click();
    await page.getByRole('menuitem', { name: 'Editar' }).click();
    await saveLimits(page, '10', null);
    await expect(card).toContainText('de 10 tokens');

    // A spent budget is another state of the banner: it shows again, and the send is refused.
    await viewer.reload();
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toHaveAttribute('data-budget-state', 'spent');
    await chats.waitOnline();
    await chats.send('Mais uma pergunta, por favor');
    const refusal = viewer.getByText(/O orçamento de uso foi atingido/);
    await expect(refusal).toBeVisible({ timeout: 15_000 });
    await expect(viewer.getByText(/Os envios voltam a funcionar em .*\d{4}/)).toBeVisible();
    await shot(viewer, info, 'budget-refused');

    // Settings → My usage names the budget and what it used.
    await viewer.goto('/settings?tab=usage');
    await expect(viewer.getByTestId('my-budget')).toContainText('de 10 tokens');
  } finally {
    await viewer.context().close();
    // Deleted after a confirmation: the person is free again.
    await card.getByRole('button', { name: /Ações do orçamento/ }).click();
    await page.getByRole('menuitem', { name: 'Excluir' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
    await expect(card).toHaveCount(0);
  }
});
