import { expect, type Page, test } from '@playwright/test';
import { bearerOf } from './fixtures/api.ts';
import { chatPeople } from './fixtures/chat-people.ts';
import { ChatsPage, isMobile, shot, signInAs, tag } from './pages/chats.ts';

// The prompt library (docs/ARCHITECTURE.md#prompt-library): written in Settings → Prompts, used
// from the composer with `/`, its variables filled in a small form; edits make versions.

test.describe.configure({ timeout: 90_000 });

const personOf = (mobile: boolean) => (mobile ? chatPeople.promptsMobile : chatPeople.promptsDesktop);

test.beforeEach(async ({ page }, info) => {
  await signInAs(page, personOf(isMobile(info)));
});

/** Settings → Prompts, its list read. */
async function openLibrary(page: Page) {
  await page.goto('/settings?tab=prompts');
  await expect(page.getByRole('tab', { name: 'Prompts' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('list-loading')).toHaveCount(0);
}

/** One prompt's row (a table row on a desktop, a card on a phone). */
const rowOf = (page: Page, title: string) => page.getByTestId('prompt-row').filter({ hasText: title });

/** Picks an action of a prompt's row menu. */
async function rowAction(page: Page, title: string, action: string) {
  await rowOf(page, title)
    .getByRole('button', { name: `Ações de ${title}` })
    .click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

test('a private prompt with a variable, picked with / in a chat, filled in and sent', async ({
  page,
}, info) => {
  const id = tag();
  const title = `E-mail ao cliente ${id}`;
  const command = `email-${id}`;
  await openLibrary(page);
  await page.getByTestId('prompt-create').click();
  const dialog = page.getByRole('dialog', { name: 'Novo prompt' });
  await dialog.getByTestId('prompt-title').fill(title);
  await dialog.getByTestId('prompt-command').fill(command);
  await dialog
    .getByTestId('prompt-content')
    .fill('Escreva um e-mail para {{cliente}} confirmando a reunião.');
  // The variables found show as the content is typed; a Viewer writes only their own prompts.
  await expect(dialog.getByTestId('prompt-variables-found')).toContainText('cliente');
  await expect(dialog.getByTestId('prompt-scope-select').locator('option')).toHaveText(['Pessoal']);
  await shot(page, info, 'prompt-form');
  await dialog.getByRole('button', { name: 'Criar prompt' }).click();
  await expect(dialog).toBeHidden();
  const row = rowOf(page, title);
  await expect(row).toContainText(`/${command}`);
  await expect(row.getByTestId('prompt-scope')).toHaveText('Pessoal');
  await expect(row.getByTestId('prompt-version')).toHaveText('v1');
  await shot(page, info, 'library');

  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await chats.composer.pressSequentially(`/${command.slice(0, 9)}`);
  const listbox = page.getByRole('listbox', { name: 'Prompts' });
  await expect(listbox).toBeVisible();
  const option = listbox.getByRole('option').filter({ hasText: title });
  await expect(option).toHaveAttribute('aria-selected', 'true');
  // The message box keeps the focus and names the highlighted option.
  await expect(chats.composer).toHaveAttribute(
    'aria-activedescendant',
    (await option.getAttribute('id')) ?? '',
  );
  await shot(page, info, 'picker');
  await chats.composer.press('Enter');

  const form = page.getByRole('form', { name: `Preencha “${title}”` });
  await expect(form).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'cliente' })).toBeFocused();
  await page.keyboard.type('Acme Ltda.');
  await shot(page, info, 'variables');
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  const filled = 'Escreva um e-mail para Acme Ltda. confirmando a reunião.';
  await expect(chats.composer).toHaveValue(filled);
  await expect(chats.composer).toBeFocused();
  // Nothing went out on its own: still the new chat, no message.
  await expect(page).toHaveURL(/\/chats$/);
  await expect(chats.messages).toHaveCount(0);

  await chats.composer.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  await expect(chats.messages.first()).toContainText(filled);
  await chats.waitAnswerDone();
  await expect(chats.lastAnswer).toHaveAttribute('data-status', 'complete');
  await expect(chats.lastAnswer).toContainText('Claro!');
  await shot(page, info, 'sent');
});

test('an edit makes version 2, and restoring version 1 brings the old content back', async ({
  page,
  request,
}, info) => {
  const id = tag();
  const title = `Resumo ${id}`;
  const command = `resumo-${id}`;
  const first = 'Resuma a conversa em três tópicos.';
  const second = 'Resuma a conversa em um parágrafo.';
  const headers = await bearerOf(request, personOf(isMobile(info)).email);
  const created = await request.post('/api/v1/prompts', {
    headers,
    data: { title, command, content: first },
  });
  expect(created.status(), await created.text()).toBe(201);

  await openLibrary(page);
  await rowAction(page, title, 'Editar');
  const dialog = page.getByRole('dialog', { name: 'Editar prompt' });
  await expect(dialog.getByTestId('prompt-content')).toHaveValue(first);
  await dialog.getByTestId('prompt-content').fill(second);
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, title).getByTestId('prompt-version')).toHaveText('v2');

  await rowAction(page, title, 'Versões');
  const history = page.getByRole('dialog', { name: `Versões de “${title}”` });
  const versions = history.getByTestId('prompt-version-item');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText('Versão 2');
  await expect(versions.first()).toContainText('Atual');
  await expect(versions.first().getByTestId('prompt-version-content')).toHaveText(second);
  await expect(versions.nth(1).getByTestId('prompt-version-content')).toHaveText(first);
  await shot(page, info, 'versions');
  await versions.nth(1).getByRole('button', { name: 'Restaurar a versão 1' }).click();
  const confirm = page.getByRole('dialog', { name: 'Restaurar a versão 1?' });
  await expect(confirm).toContainText('nova versão (3)');
  await confirm.getByRole('button', { name: 'Restaurar' }).click();
  await expect(confirm).toBeHidden();
  await expect(versions).toHaveCount(3);
  await expect(versions.first()).toContainText('Versão 3');
  await expect(versions.first().getByTestId('prompt-version-content')).toHaveText(first);
  await history.getByRole('button', { name: 'Fechar' }).click();
  await expect(rowOf(page, title).getByTestId('prompt-version')).toHaveText('v3');

  // The composer inserts the restored content.
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await chats.composer.pressSequentially(`/${command}`);
  await expect(page.getByRole('option').filter({ hasText: title })).toBeVisible();
  await chats.composer.press('Enter');
  await expect(chats.composer).toHaveValue(first);
});
