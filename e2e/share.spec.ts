import { expect, type Page, test } from '@playwright/test';
import { chatPeople } from './fixtures/chat-people.ts';
import { PASSWORD } from './fixtures/env.ts';
import { ChatsPage, isMobile, shot, signInAs, signInElsewhere, tag } from './pages/chats.ts';

// Share links (docs/ARCHITECTURE.md#share-links): a chat shared with the organisation, read and
// continued by a colleague, counted and revoked by its owner, and closed to another organisation.

test.describe.configure({ timeout: 120_000 });

/** Signs `person` in, asks `question` in a new chat and opens its share dialog. */
async function askThenShare(
  page: Page,
  person: Parameters<typeof signInAs>[1],
  mobile: boolean,
  question: string,
) {
  await signInAs(page, person);
  const chats = new ChatsPage(page, mobile);
  await chats.openNew();
  await chats.startChat(question);
  await chats.waitAnswerDone();
  await page.getByTestId('chat-share').click();
  return { dialog: page.getByRole('dialog', { name: 'Compartilhar conversa' }) };
}

test('a chat shared with the organisation is read, continued as a copy, counted and revoked', async ({
  page,
  browser,
}, info) => {
  const mobile = isMobile(info);
  const owner = mobile ? chatPeople.shareOwnerMobile : chatPeople.shareOwnerDesktop;
  const colleague = mobile ? chatPeople.shareColleagueMobile : chatPeople.shareColleagueDesktop;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // The owner asks something, then shares the chat with the organisation and copies the link.
  const question = `Plano de vendas do trimestre ${tag()}`;
  const { dialog } = await askThenShare(page, owner, mobile, question);
  await expect(dialog.getByRole('radio', { name: /Minha organização/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /Qualquer pessoa com o link/ })).toBeDisabled();
  await shot(page, info, 'share-dialog');
  await dialog.getByRole('button', { name: 'Criar link' }).click();
  const url = await dialog.getByTestId('share-url').inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);
  await expect(dialog.getByText('mensagens enviadas depois não aparecem', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: 'Copiar link' }).click();
  await expect(dialog.getByRole('button', { name: 'Copiado' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await shot(page, info, 'share-created');
  await dialog.getByRole('button', { name: 'Concluir' }).click();
  const sharePath = new URL(url).pathname;

  // A colleague of the same organisation reads it and continues it as a chat of their own.
  const other = await signInElsewhere(browser, colleague, mobile);
  await other.goto(sharePath);
  await expect(other.getByTestId('shared-title')).toHaveText(question);
  await expect(other.getByText(`Compartilhada por ${owner.name}`, { exact: false })).toBeVisible();
  const shared = other.locator('[data-testid="message"]');
  await expect(shared.first()).toContainText(question);
  await expect(shared.nth(1)).toContainText('Claro!');
  // Read-only: nothing to edit or regenerate.
  await expect(other.getByRole('button', { name: 'Gerar outra resposta' })).toHaveCount(0);
  await shot(other, info, 'shared-chat');
  await other.getByRole('button', { name: 'Continuar como cópia' }).click();
  await expect(other).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);
  const copy = new ChatsPage(other, mobile);
  await expect(copy.messages.first()).toContainText(question);
  await expect(copy.lastAnswer).toContainText('Claro!');
  expect(other.url()).not.toContain(sharePath);

  // Someone of another organisation: the link is not for them.
  const stranger = await signInElsewhere(browser, chatPeople.shareStranger, mobile);
  await stranger.goto(sharePath);
  await expect(stranger.getByRole('heading', { name: 'Este link não está disponível' })).toBeVisible();
  await shot(stranger, info, 'share-other-domain');
  await stranger.context().close();

  // The owner sees the one view (their own reads and the refused one do not count) and revokes it.
  await page.goto('/settings?tab=shares');
  const row = page.getByTestId('share-row').filter({ hasText: question });
  await expect(row.getByTestId('share-views')).toContainText('1');
  await shot(page, info, 'share-list');
  await row.getByRole('button', { name: `Ações do link ${question}` }).click();
  await page.getByRole('menuitem', { name: 'Revogar' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revogar link?' });
  await confirm.getByRole('button', { name: 'Revogar' }).click();
  await expect(page.getByText('Link revogado')).toBeVisible();
  await expect(page.getByTestId('share-row').filter({ hasText: question })).toHaveCount(0);

  // Gone at once: the colleague's reload says so; their copy stays.
  await other.goto(sharePath);
  await expect(other.getByRole('heading', { name: 'Este link não está disponível' })).toBeVisible();
  await shot(other, info, 'share-revoked');
  await other.context().close();
});

test('a link to the organisation opened signed out asks to sign in, and returns to it', async ({
  page,
  browser,
}, info) => {
  const mobile = isMobile(info);
  const owner = mobile ? chatPeople.shareOwnerMobile : chatPeople.shareOwnerDesktop;
  const colleague = mobile ? chatPeople.shareColleagueMobile : chatPeople.shareColleagueDesktop;
  const question = `Resumo da reunião ${tag()}`;
  const { dialog } = await askThenShare(page, owner, mobile, question);
  await dialog.getByRole('button', { name: 'Criar link' }).click();
  const sharePath = new URL(await dialog.getByTestId('share-url').inputValue()).pathname;

  const context = await browser.newContext(
    mobile
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'pt-BR' }
      : { locale: 'pt-BR' },
  );
  const anonymous = await context.newPage();
  await anonymous.goto(sharePath);
  await expect(anonymous.getByRole('heading', { name: 'Entre para ver esta conversa' })).toBeVisible();
  await shot(anonymous, info, 'share-signed-out');
  await anonymous.getByTestId('share-sign-in').click();
  await anonymous.getByLabel('E-mail').fill(colleague.email);
  await anonymous.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await anonymous.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(anonymous).toHaveURL(new RegExp(`${sharePath}$`));
  await expect(anonymous.getByTestId('shared-title')).toHaveText(question);
  await context.close();
});
