import { expect, test } from '@playwright/test';
import { bearerOf } from './fixtures/api.ts';
import { chatPeople, SLOW_ANSWER_MARK } from './fixtures/chat-people.ts';
import { people } from './fixtures/env.ts';
import { ChatsPage, downloadedText, isMobile, shot, signInAs, tag } from './pages/chats.ts';

// The chat journeys of one conversation: streaming, branches, the list, export, the parameters.
// Attachments have their own spec (chats-attachments.spec.ts).

// Each test waits for a few streamed answers (a few seconds each).
test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ page }, info) => {
  await signInAs(page, isMobile(info) ? chatPeople.chatFlowMobile : chatPeople.chatFlowDesktop);
});

test('a question is answered as it streams in, rendered as Markdown with highlighted code', async ({
  page,
}, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await shot(page, info, 'new-chat');
  const question = `Mostre um exemplo de código ${tag()}`;
  await chats.startChat(question);
  await expect(chats.messages.first()).toContainText(question);
  // The answer streams: it is seen while generating, with the stop button, then complete.
  await expect(chats.lastAnswer).toHaveAttribute('data-status', 'streaming');
  await expect(page.getByTestId('stop')).toBeVisible();
  await shot(page, info, 'streaming');
  await chats.waitAnswerDone();
  await expect(chats.lastAnswer).toHaveAttribute('data-status', 'complete');
  await expect(chats.lastAnswer.locator('strong', { hasText: 'TypeScript' })).toBeVisible();
  await expect(chats.lastAnswer.locator('li')).toHaveCount(3);
  // The highlighter is loaded on first need and colours the code block.
  await expect(chats.lastAnswer.locator('pre code.hljs .hljs-keyword').first()).toHaveText('const');
  await expect(chats.lastAnswer.getByRole('button', { name: 'Copiar código' })).toBeVisible();
  await expect(page.getByTestId('send')).toBeVisible();
  // The chat is titled after its first message and listed first.
  await expect(page.getByTestId('chat-title')).toHaveText(question);
  await chats.openList();
  await expect(chats.item(question)).toBeVisible();
  await shot(page, info, 'answered');
});

test('stop keeps the partial answer, and regenerate adds a second version (1/2 ↔ 2/2)', async ({
  page,
}, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await chats.startChat(`${SLOW_ANSWER_MARK} ${tag()}`);
  await expect(chats.lastAnswer).toContainText('Claro!');
  await page.getByTestId('stop').click();
  await expect(chats.lastAnswer).toHaveAttribute('data-status', 'stopped');
  await expect(chats.lastAnswer).toContainText('Resposta interrompida');
  await expect(chats.lastAnswer).not.toContainText('palavra por palavra');
  await shot(page, info, 'stopped');

  await chats.lastAnswer.getByRole('button', { name: 'Gerar outra resposta' }).click();
  await expect(chats.lastAnswer.getByTestId('branch-position')).toHaveText('2/2');
  await chats.waitAnswerDone();
  await expect(chats.lastAnswer).toContainText('palavra por palavra');
  await chats.lastAnswer.getByRole('button', { name: 'Versão anterior' }).click();
  await expect(chats.lastAnswer.getByTestId('branch-position')).toHaveText('1/2');
  await expect(chats.lastAnswer).toContainText('Resposta interrompida');
  await shot(page, info, 'branches');
});

test('editing a message resends it as a new branch and keeps the old one', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  const original = `Pergunta original ${tag()}`;
  await chats.startChat(original);
  await chats.waitAnswerDone();
  const edited = `Pergunta editada ${tag()}`;
  await chats.editAndResend(chats.messages.first(), edited);
  await expect(chats.messages.first()).toContainText(edited);
  await expect(chats.messages.first().getByTestId('branch-position')).toHaveText('2/2');
  await chats.waitAnswerDone();
  await chats.messages.first().getByRole('button', { name: 'Versão anterior' }).click();
  await expect(chats.messages.first()).toContainText(original);
  await expect(chats.messages.first().getByTestId('branch-position')).toHaveText('1/2');
});

test('a reload mid-answer finds the whole answer, stored and resumed', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  const id = await chats.startChat(`Recarregue no meio ${tag()}`);
  await expect(chats.lastAnswer).toContainText('Claro!');
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/chats/${id}$`));
  await chats.waitAnswerDone();
  await expect(chats.lastAnswer).toHaveAttribute('data-status', 'complete');
  await expect(chats.lastAnswer).toContainText('palavra por palavra, do servidor de testes.');
  // A fresh load agrees: the server stored all of it.
  await page.reload();
  await expect(chats.lastAnswer).toContainText('do servidor de testes.');
  await expect(chats.lastAnswer.locator('li')).toHaveCount(3);
});

test('rename, pin, search, delete and undo in the chats list', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  const t = tag();
  await chats.openNew();
  await chats.startChat(`Primeira conversa ${t}`);
  await chats.waitAnswerDone();
  // A second chat, started from the list's "new chat" button.
  await chats.openList();
  await page.getByTestId('new-chat').first().click();
  await expect(page).toHaveURL(/\/chats$/);
  await chats.waitOnline();
  await chats.startChat(`Segunda conversa ${t}`);
  await chats.waitAnswerDone();

  // Rename inline.
  await chats.openList();
  await chats.rowAction(`Primeira conversa ${t}`, 'Renomear');
  const input = page.getByRole('textbox', { name: 'Novo título da conversa' });
  await input.fill(`Renomeada ${t}`);
  await input.press('Enter');
  await expect(chats.item(`Renomeada ${t}`)).toBeVisible();

  // Pin: the pinned chat goes first.
  await chats.rowAction(`Renomeada ${t}`, 'Fixar');
  await expect(chats.list.getByTestId('chat-list-item').first()).toContainText(`Renomeada ${t}`);
  await expect(chats.item(`Renomeada ${t}`).getByLabel('Fixada')).toBeVisible();

  // Search on the server (titles and messages).
  await shot(page, info, 'list');
  await chats.search(`Segunda conversa ${t}`);
  await expect(chats.list.getByTestId('chat-list-item')).toHaveCount(1);
  await expect(chats.item(`Segunda conversa ${t}`)).toBeVisible();
  await shot(page, info, 'search');
  await chats.search('');

  // Delete, then undo.
  await chats.rowAction(`Segunda conversa ${t}`, 'Excluir');
  await expect(chats.item(`Segunda conversa ${t}`)).toHaveCount(0);
  const undo = page.getByRole('status').filter({ hasText: 'excluída' });
  await expect(undo).toBeVisible();
  await shot(page, info, 'deleted');
  // The offer keeps its button whole (the title gives way) and sits above the composer, not on it.
  const undoLabel = undo.getByRole('button', { name: 'Desfazer' }).locator('.mantine-Button-label');
  expect(await undoLabel.evaluate((label) => label.scrollWidth <= label.clientWidth)).toBe(true);
  const undoBox = await undo.boundingBox();
  const composerBox = await page.getByTestId('composer').last().boundingBox();
  expect(undoBox && composerBox && undoBox.y + undoBox.height <= composerBox.y).toBe(true);
  await undo.getByRole('button', { name: 'Desfazer' }).click();
  await chats.openList();
  await expect(chats.item(`Segunda conversa ${t}`)).toBeVisible();

  // The rename and the pin were stored.
  await page.reload();
  await chats.openList();
  await expect(chats.list.getByTestId('chat-list-item').first()).toContainText(`Renomeada ${t}`);
});

test('a chat exports as Markdown and JSON', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  const question = `Exportar esta conversa ${tag()}`;
  await chats.startChat(question);
  await chats.waitAnswerDone();
  await page.getByTestId('chat-menu').click();
  const [markdown] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Exportar como Markdown' }).click(),
  ]);
  expect(markdown.suggestedFilename()).toMatch(/\.md$/);
  const content = await downloadedText(markdown);
  expect(content).toContain(question);
  expect(content).toContain('const soma');

  await page.getByTestId('chat-menu').click();
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Exportar como JSON' }).click(),
  ]);
  expect(json.suggestedFilename()).toMatch(/\.json$/);
  const parsed = JSON.parse(await downloadedText(json)) as { messages: Array<{ content: string }> };
  expect(parsed.messages.map((m) => m.content)).toContain(question);
});

test('the export is of the branch on screen, labelled in the screen’s language', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  const original = `Pergunta original ${tag()}`;
  await chats.startChat(original);
  await chats.waitAnswerDone();
  // Edit and resend (2/2), back to 1/2 and go on there: that branch now has the newest message.
  const first = chats.messages.first();
  const edited = `Pergunta editada ${tag()}`;
  await chats.editAndResend(first, edited);
  await expect(first.getByTestId('branch-position')).toHaveText('2/2');
  await chats.waitAnswerDone();
  await first.getByRole('button', { name: 'Versão anterior' }).click();
  await expect(first).toContainText(original);
  const followUp = `Continuação ${tag()}`;
  await chats.send(followUp);
  await expect(chats.messages.filter({ hasText: followUp })).toHaveCount(1);
  await chats.waitAnswerDone();
  // The edited question is what the user is reading when they export.
  await first.getByRole('button', { name: 'Próxima versão' }).click();
  await expect(first).toContainText(edited);
  await expect(chats.messages.filter({ hasText: followUp })).toHaveCount(0);

  await page.getByTestId('chat-menu').click();
  const [markdown] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Exportar como Markdown' }).click(),
  ]);
  const content = await downloadedText(markdown);
  // The title is still the first question's; the messages are the branch on screen.
  const messages = content.slice(content.indexOf('\n## '));
  expect(messages).toContain(edited);
  expect(messages).not.toContain(original);
  expect(messages).not.toContain(followUp);
  expect(messages).toContain('\n## Você\n');
  expect(messages).toMatch(/^## Assistente/m);
  expect(content).toContain('_Exportado em ');
});

test('the home page greets, starts a chat from its box and lists recent chats', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await expect(page.getByTestId('home-greeting')).toHaveText(isMobile(info) ? 'Olá, Fred' : 'Olá, Flávia');
  const question = `Pergunta da página inicial ${tag()}`;
  const box = page.getByTestId('home-new-chat').getByTestId('composer-input');
  await box.fill(question);
  await shot(page, info, 'home');
  await box.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  await expect(chats.messages.first()).toContainText(question);
  await chats.waitAnswerDone();
  await page.goto('/');
  await expect(page.getByTestId('recent-chats')).toContainText(question);
});

test('messages from model output and from users are rendered inert', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  const payload = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> [x](javascript:window.__xss=3) ${tag()}`;
  await chats.startChat(payload);
  await chats.waitAnswerDone();
  await expect(chats.messages.first()).toContainText('<script>window.__xss=2</script>');
  expect(await chats.messages.first().locator('img, script').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test('offline, the composer waits and says so; back online the socket reconnects', async ({
  page,
  context,
}, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await context.setOffline(true);
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'offline');
  await expect(chats.composer).toHaveAttribute('placeholder', /Sem conexão/);
  await chats.composer.fill('enviar depois');
  await expect(page.getByTestId('send')).toBeDisabled();
  // Words beside the badge at desktop widths, an icon on a phone: one button either way.
  await expect(page.getByRole('button', { name: 'Tentar agora' })).toBeVisible();
  await shot(page, info, 'offline');
  await context.setOffline(false);
  await chats.waitOnline();
  await expect(page.getByTestId('send')).toBeEnabled();
  await chats.composer.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  await chats.waitAnswerDone();
});

test('the chat parameters (model, instructions) are kept per chat', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await chats.startChat(`Parâmetros ${tag()}`);
  await chats.waitAnswerDone();
  await page.getByTestId('toggle-params').click();
  const panel = page.getByTestId('params-panel');
  await expect(panel).toBeVisible();
  // With no choice, the field names the default model by its own name (short enough to read whole).
  await expect(panel.getByRole('combobox', { name: 'Modelo' })).toHaveAttribute(
    'placeholder',
    'fixture-small (padrão)',
  );
  await shot(page, info, 'params-default');
  await panel.getByRole('combobox', { name: 'Modelo' }).click();
  await page.getByRole('option', { name: 'fixture-large' }).click();
  await panel.getByRole('textbox', { name: 'Instruções adicionais' }).fill('Responda em tópicos.');
  await shot(page, info, 'params');
  await panel.getByRole('button', { name: 'Salvar parâmetros' }).click();
  await expect(panel.getByText('Parâmetros salvos')).toBeVisible();
  await page.reload();
  await expect(chats.lastAnswer).toBeVisible();
  if (!(await page.getByTestId('params-panel').isVisible())) await page.getByTestId('toggle-params').click();
  await expect(
    page.getByTestId('params-panel').getByRole('textbox', { name: 'Instruções adicionais' }),
  ).toHaveValue('Responda em tópicos.');
  await expect(page.getByTestId('params-panel').getByRole('combobox', { name: 'Modelo' })).toHaveValue(
    'fixture-large',
  );
  // A new answer in this chat uses them. On a phone the panel is a drawer over the page: its own
  // close button is the way out.
  if (isMobile(info)) await page.getByTestId('params-panel').getByRole('button', { name: 'Fechar' }).click();
  else await page.getByTestId('toggle-params').click();
  await expect(page.getByTestId('params-panel')).toBeHidden();
  await chats.send('Mais uma');
  await expect(chats.assistant).toHaveCount(2);
  await chats.waitAnswerDone();
});

test('a chat that does not exist, or is another user’s, shows the 404 page and nothing of a chat', async ({
  page,
  request,
}) => {
  // Another user's chat, made through the API.
  const made = await request.post('/api/v1/chats', {
    headers: await bearerOf(request, people.viewer.email),
    data: { title: 'Not yours' },
  });
  const { chatId } = (await made.json()) as { chatId: string };

  for (const id of [chatId, crypto.randomUUID()]) {
    await page.goto(`/chats/${id}`);
    await expect(page.getByTestId('error-page')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible();
    // Nothing of a chat around it: no header, parameters or export.
    await expect(page.getByTestId('chat-view')).toHaveCount(0);
    await expect(page.getByTestId('chat-title')).toHaveCount(0);
    await expect(page.getByText('Not yours')).toHaveCount(0);
  }
  await page.getByRole('link', { name: 'Voltar' }).click();
  await expect(page).toHaveURL(/\/$/);
});
