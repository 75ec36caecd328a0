import { expect, test } from '@playwright/test';
import { chatPeople } from './fixtures/chat-people.ts';
import {
  MEMORY_ASK,
  MEMORY_BULLETS,
  MEMORY_EDITED,
  MEMORY_QUESTION,
  MEMORY_SAVED,
  MEMORY_TEXT,
} from './fixtures/tools.ts';
import { ChatsPage, isMobile, shot, signInAs, signInElsewhere } from './pages/chats.ts';

test.describe.configure({ timeout: 120_000 });

// Memory (docs/ARCHITECTURE.md#memory), as a person meets it: their Admin turns it on, they ask the
// assistant to remember a preference, find and edit it in Settings → Memória, and a later chat
// follows it and says so. The fixture model answers in bullets only when the edited memory is in
// the instructions it was sent, so the answer shows what reached the model.

test('a person asks the assistant to remember, edits the memory, and a new chat follows it', async ({
  page,
  browser,
}, info) => {
  const mobile = isMobile(info);
  const admin = mobile ? chatPeople.memoryAdminMobile : chatPeople.memoryAdminDesktop;
  const person = mobile ? chatPeople.memoryMobile : chatPeople.memoryDesktop;

  // The Admin turns memory on for the organisation, in the Memória tab itself.
  const adminPage = await signInElsewhere(browser, admin, mobile);
  await adminPage.goto('/settings?tab=memory');
  const adminTab = adminPage.getByTestId('memory-tab');
  await expect(adminTab.getByTestId('memory-off')).toContainText('A memória está desligada');
  await adminTab.getByRole('switch', { name: /Memória na organização/ }).click();
  await expect(adminTab.getByTestId('memory-add')).toBeVisible();
  await expect(adminTab.getByTestId('memory-off')).toHaveCount(0);
  await shot(adminPage, info, 'memory-turned-on');
  await adminPage.context().close();

  // The person asks to be remembered: the assistant saves it with its `remember` tool, unasked.
  await signInAs(page, person);
  const chats = new ChatsPage(page, mobile);
  await chats.openNew();
  await chats.startChat(MEMORY_ASK);
  await chats.waitAnswerDone();
  const saved = chats.lastAnswer;
  await expect(saved).toHaveAttribute('data-status', 'complete');
  const step = saved.getByTestId('tool-step');
  await expect(step).toHaveAttribute('data-status', 'done');
  await expect(step).toContainText(`Lembrou: “${MEMORY_TEXT}”`);
  await expect(saved).toContainText(MEMORY_SAVED);
  // Nothing was remembered before this answer: it used no memory.
  await expect(saved.getByTestId('used-memory')).toHaveCount(0);
  await shot(page, info, 'memory-remembered');

  // Settings → Memória lists it as the assistant's; the person edits it in place.
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Memória', exact: true }).click();
  const row = page.getByTestId('memory-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(MEMORY_TEXT);
  await expect(row.getByTestId('memory-source')).toContainText('Salva pelo assistente');
  await expect(page.getByTestId('memory-switch')).toHaveCount(0);
  await row.getByRole('button', { name: 'Editar' }).click();
  await row.getByRole('textbox', { name: 'Texto da memória' }).fill(MEMORY_EDITED);
  await row.getByRole('button', { name: 'Salvar' }).click();
  await expect(row).toContainText(MEMORY_EDITED);
  await expect(page.getByTestId('memory-injected')).toContainText(
    '1 de 1 memória vai para as suas conversas.',
  );
  await shot(page, info, 'memory-settings');

  // A new chat is given the edited memory: the answer follows it, and says it used memories.
  await chats.openNew();
  await chats.startChat(MEMORY_QUESTION);
  await chats.waitAnswerDone();
  const answer = chats.lastAnswer;
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer.getByRole('listitem').first()).toHaveText(MEMORY_BULLETS);
  const badge = answer.getByTestId('used-memory');
  await expect(badge).toHaveText('Usou suas memórias');
  await shot(page, info, 'memory-used');

  // Stored with the answer: a reload still says so, and the badge opens the memories.
  await page.reload();
  await chats.waitAnswerDone();
  await expect(chats.lastAnswer.getByTestId('used-memory')).toHaveText('Usou suas memórias');
  await chats.lastAnswer.getByTestId('used-memory').click();
  await expect(page).toHaveURL(/\/settings\?tab=memory$/);
  await expect(page.getByTestId('memory-row')).toContainText(MEMORY_EDITED);
});
