import { expect, test } from '@playwright/test';
import { branchedChatGpt, json, simpleChatGpt, zipOf } from '../apps/server/src/test/chat-exports.ts';
import { chatPeople } from './fixtures/chat-people.ts';
import { isMobile, shot, signInAs, tag } from './pages/chats.ts';

// Settings → Import (docs/ARCHITECTURE.md#chat-import): a ChatGPT export ZIP made here, with a
// branch, imported; its report; an imported chat opened from it; the same file again, skipped.

test.describe.configure({ timeout: 90_000 });

test('a person imports a ChatGPT export ZIP, opens a chat from the report, and a second upload skips it all', async ({
  page,
}, info) => {
  const person = isMobile(info) ? chatPeople.importMobile : chatPeople.importDesktop;
  // Each run its own conversations: a run before this one imported its own.
  const run = tag();
  const title = `Capitais ${run}`;
  const file = {
    name: 'chatgpt-export.zip',
    mimeType: 'application/zip',
    buffer: await zipOf({
      'chat.html': '<html></html>',
      'user.json': json({ id: 'user-e2e' }),
      'conversations-000.json': json([branchedChatGpt(`branches-${run}`, title)]),
      'conversations-001.json': json([simpleChatGpt(`hello-${run}`, `Saudação ${run}`)]),
    }),
  };

  await signInAs(page, person);
  await page.goto('/settings?tab=import');
  await expect(page.getByRole('tab', { name: 'Importar' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText(/Controles de dados → Exportar dados/)).toBeVisible();
  await shot(page, info, 'import-drop');

  await page.getByTestId('chat-import-input').setInputFiles(file);
  const summary = page.getByTestId('chat-import-summary');
  await expect(summary).toHaveAttribute('data-outcome', 'imported', { timeout: 30_000 });
  await expect(summary).toContainText('2 conversas importadas');
  const items = page.getByTestId('chat-import-item');
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: 'Importada' })).toHaveCount(2);
  await shot(page, info, 'import-report');

  // The chat opens with the branch last written in, its versions a step away.
  await page.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);
  const messages = page.getByTestId('message');
  await expect(messages.filter({ hasText: 'Qual a capital da França?' })).toBeVisible();
  await expect(messages.filter({ hasText: 'A capital da França é Paris.' })).toBeVisible();
  await expect(messages.filter({ hasText: 'E da Espanha?' })).toBeVisible();
  await expect(messages.filter({ hasText: 'Madri.' })).toBeVisible();
  await expect(page.getByTestId('branch-position').first()).toHaveText('2/2');
  await shot(page, info, 'import-chat');
  // The regenerated answer's other version is the first one.
  const answer = messages.filter({ hasText: 'A capital da França é Paris.' });
  await answer.getByRole('button', { name: 'Versão anterior' }).click();
  await expect(messages.filter({ hasText: 'A capital da França é Paris.' })).toHaveCount(0);
  await expect(messages.filter({ hasText: 'Paris.' })).toBeVisible();
  await expect(messages.filter({ hasText: 'Madri.' })).toHaveCount(0);

  await page.goto('/settings?tab=import');
  await page.getByTestId('chat-import-input').setInputFiles(file);
  await expect(summary).toHaveAttribute('data-outcome', 'nothing', { timeout: 30_000 });
  await expect(summary).toContainText('Nada foi importado');
  await expect(summary).toContainText('Todas as 2 conversas deste arquivo já tinham sido importadas antes.');
  await expect(items.filter({ hasText: 'Já importada' })).toHaveCount(2);
  await shot(page, info, 'import-skipped');
});
