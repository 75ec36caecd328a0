import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  type TestInfo,
  test,
} from '@playwright/test';
import { chatPeople, SLOW_ANSWER_MARK } from './fixtures/chat-people.ts';
import { PASSWORD, people } from './fixtures/env.ts';
import { ChatsPage, isMobile, shot, signInAs } from './pages/chats.ts';

const tag = () => Math.random().toString(36).slice(2, 8);

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
  const user = chats.messages.first();
  await user.hover();
  await user.getByRole('button', { name: 'Editar e reenviar' }).click();
  const edited = `Pergunta editada ${tag()}`;
  await page.getByRole('textbox', { name: 'Editar mensagem' }).fill(edited);
  await page.getByRole('button', { name: 'Salvar e enviar' }).click();
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
  const text = await (await markdown.createReadStream()).toArray();
  const content = Buffer.concat(text).toString('utf8');
  expect(content).toContain(question);
  expect(content).toContain('const soma');

  await page.getByTestId('chat-menu').click();
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Exportar como JSON' }).click(),
  ]);
  expect(json.suggestedFilename()).toMatch(/\.json$/);
  const parsed = JSON.parse(
    Buffer.concat(await (await json.createReadStream()).toArray()).toString('utf8'),
  ) as {
    messages: Array<{ content: string }>;
  };
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
  await first.hover();
  await first.getByRole('button', { name: 'Editar e reenviar' }).click();
  const edited = `Pergunta editada ${tag()}`;
  await page.getByRole('textbox', { name: 'Editar mensagem' }).fill(edited);
  await page.getByRole('button', { name: 'Salvar e enviar' }).click();
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
  const content = Buffer.concat(await (await markdown.createReadStream()).toArray()).toString('utf8');
  // The title is still the first question's; the messages are the branch on screen.
  const messages = content.slice(content.indexOf('\n## '));
  expect(messages).toContain(edited);
  expect(messages).not.toContain(original);
  expect(messages).not.toContain(followUp);
  expect(messages).toContain('\n## Você\n');
  expect(messages).toMatch(/^## Assistente/m);
  expect(content).toContain('_Exportado em ');
});

test('a file is attached with upload progress and sent with the message', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await page.getByTestId('file-input').setInputFiles({
    name: 'notas.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Notas da reunião: revisar o orçamento.\n'),
  });
  const chip = page.getByTestId('upload-chip');
  await expect(chip).toContainText('notas.txt');
  await expect(chip).toHaveAttribute('data-status', 'done');
  await shot(page, info, 'attachment');
  await chats.send(`Resuma o arquivo anexado ${tag()}`);
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  const user = chats.messages.first();
  await expect(user.getByRole('button', { name: /notas\.txt/ })).toBeVisible();
  await chats.waitAnswerDone();
  // The file downloads back from the chat.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    user.getByRole('button', { name: /notas\.txt/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('notas.txt');
});

// A 1×1 PNG padded after its end to 1.5 kB: a size written with a decimal comma in pt-BR.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const paddedPng = Buffer.concat([PNG, Buffer.alloc(1536 - PNG.length)]);

/** The image has been decoded (the page's CSP let it load): a blocked or broken one has no width. */
async function expectShown(image: Locator): Promise<void> {
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1);
}

test('an image attached from the home page opens a new chat with its thumbnail, kept when sent', async ({
  page,
}, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  const home = page.getByTestId('home-new-chat');
  const draft = `Descreva a imagem ${tag()}`;
  await home.getByTestId('composer-input').fill(draft);
  await expect(home.getByRole('button', { name: 'Anexar arquivos' })).toBeVisible();
  await home
    .getByTestId('file-input')
    .setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: paddedPng });

  // The new chat has the file uploading or uploaded, and the text typed beside it.
  await page.waitForURL(/\/chats$/);
  const chip = page.getByTestId('upload-chip');
  await expect(chip).toHaveAttribute('data-status', 'done');
  await expect(chip).toContainText('1,5 kB');
  await expectShown(chip.getByTestId('upload-thumbnail'));
  await expect(chats.composer).toHaveValue(draft);
  await shot(page, info, 'image-attached');

  await chats.waitOnline();
  await chats.composer.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  const sent = chats.messages.first().getByTestId('attachment');
  await expect(sent).toContainText('foto.png');
  await expect(sent).toContainText('1,5 kB');
  await expectShown(sent.getByTestId('attachment-thumbnail'));
  await chats.waitAnswerDone();
});

/** The chats API as the signed-in person of this project sees it (listing, messages). */
async function chatsApiOf(request: APIRequestContext, info: TestInfo) {
  const person = isMobile(info) ? chatPeople.chatFlowMobile : chatPeople.chatFlowDesktop;
  const signedIn = await request.post('/identity/v1/accounts:signInWithPassword', {
    data: { email: person.email, password: PASSWORD, returnSecureToken: true },
  });
  const { idToken } = (await signedIn.json()) as { idToken: string };
  const headers = { authorization: `Bearer ${idToken}` };
  return {
    list: async (q?: string) => {
      const res = await request.get(`/api/v1/chats?limit=200${q ? `&q=${encodeURIComponent(q)}` : ''}`, {
        headers,
      });
      return (await res.json()) as Array<{ chatId: string; title: string }>;
    },
    messages: async (chatId: string) => {
      const res = await request.get(`/api/v1/chats/${chatId}/messages`, { headers });
      return (await res.json()) as Array<{ role: string; attachments?: Array<{ name: string }> }>;
    },
  };
}

/** Counts the chats the page makes and deletes. */
function watchChats(page: Page) {
  const made: string[] = [];
  const deleted: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'POST' && path === '/api/v1/chats') made.push(path);
    if (r.method() === 'DELETE' && path.startsWith('/api/v1/chats/')) deleted.push(path);
  });
  return { made, deleted };
}

/** The chats list once its first page is in (an empty list says nothing while it loads). */
async function loadedList(chats: ChatsPage): Promise<Locator> {
  const list = await chats.openList();
  await expect(list).toHaveAttribute('data-total', /^\d+$/);
  await expect(list).not.toHaveAttribute('aria-busy', 'true');
  return list;
}

/** The home page's recent chats once loaded (or its "no chats yet" panel). */
async function loadedHome(page: Page): Promise<void> {
  await page.goto('/');
  await expect(
    page.getByTestId('recent-chats').or(page.getByText('Escreva acima para começar sua primeira conversa.')),
  ).toBeVisible();
}

const textFile = (name: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`${name}\n`) });

test('the answer says which attached file its model could read only in part', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  // Longer than the text a model is given of one file.
  await page.getByTestId('file-input').setInputFiles({
    name: 'longo.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(`${'Linha de relatório.\n'.repeat(12_000)}`),
  });
  await expect(page.getByTestId('upload-chip')).toHaveAttribute('data-status', 'done');
  await chats.send(`Resuma o relatório ${tag()}`);
  await chats.waitAnswerDone();
  const note = chats.messages.last().getByTestId('attachment-reading');
  await expect(note).toHaveText('O modelo leu só o início de longo.txt: o arquivo é longo demais para ele.');
  await shot(page, info, 'attachment-read-partly');
  // Stored with the answer: still there once the chat is opened again, in the reader's language.
  await page.goto(`/es${new URL(page.url()).pathname}`);
  await expect(chats.messages.last().getByTestId('attachment-reading')).toHaveText(
    'El modelo leyó solo el comienzo de longo.txt: el archivo es demasiado largo para él.',
  );
  await shot(page, info, 'attachment-read-partly-es');
});

test('files attached at once in a new chat all go to one chat, sent with the message', async ({
  page,
  request,
}, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  const api = await chatsApiOf(request, info);
  const { made, deleted } = watchChats(page);
  await chats.openNew();
  await page.getByTestId('file-input').setInputFiles(['um.txt', 'dois.txt', 'tres.txt'].map(textFile));
  const chips = page.getByTestId('upload-chip');
  await expect(chips).toHaveCount(3);
  for (const chip of await chips.all()) await expect(chip).toHaveAttribute('data-status', 'done');
  const title = `Três arquivos ${tag()}`;
  const chatId = await chats.startChat(title);
  const user = chats.messages.first();
  for (const n of ['um', 'dois', 'tres'])
    await expect(user.getByRole('button', { name: `${n}.txt` })).toBeVisible();
  await chats.waitAnswerDone();

  // One chat was made, none deleted, and it holds the three files.
  expect(made).toHaveLength(1);
  expect(deleted).toEqual([]);
  expect((await api.list(title)).map((c) => c.chatId)).toEqual([chatId]);
  const [question] = await api.messages(chatId);
  expect(question?.attachments?.map((a) => a.name)).toEqual(['um.txt', 'dois.txt', 'tres.txt']);
  // No empty "untitled" chat anywhere: in the API's list, the sidebar, the home page.
  expect((await api.list()).filter((c) => c.title === '')).toEqual([]);
  const list = await loadedList(chats);
  await expect(chats.item(title)).toHaveCount(1);
  await expect(list.getByText('Conversa sem título')).toHaveCount(0);
  await loadedHome(page);
  await expect(page.getByTestId('recent-chats')).toContainText(title);
  await expect(page.getByText('Conversa sem título')).toHaveCount(0);
});

test('files attached one after another before sending go to one chat too', async ({
  page,
  request,
}, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  const api = await chatsApiOf(request, info);
  const { made, deleted } = watchChats(page);
  await chats.openNew();
  const input = page.getByTestId('file-input');
  // The second while the chat for the first is still being made (held here), the third after.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/v1/chats', async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await input.setInputFiles([textFile('primeiro.txt')]);
  await expect.poll(() => made.length).toBe(1);
  await input.setInputFiles([textFile('segundo.txt')]);
  release();
  const chips = page.getByTestId('upload-chip');
  await expect(chips).toHaveCount(2);
  for (const chip of await chips.all()) await expect(chip).toHaveAttribute('data-status', 'done');
  await input.setInputFiles([textFile('terceiro.txt')]);
  await expect(chips).toHaveCount(3);
  for (const chip of await chips.all()) await expect(chip).toHaveAttribute('data-status', 'done');
  const chatId = await chats.startChat(`Um de cada vez ${tag()}`);
  await expect(chats.messages.first().getByRole('button', { name: 'terceiro.txt' })).toBeVisible();
  await chats.waitAnswerDone();
  expect(made).toHaveLength(1);
  expect(deleted).toEqual([]);
  const [question] = await api.messages(chatId);
  expect(question?.attachments?.map((a) => a.name)).toEqual(['primeiro.txt', 'segundo.txt', 'terceiro.txt']);
});

test('files attached in a new chat and never sent leave no untitled chat in the lists', async ({
  page,
}, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await page.getByTestId('file-input').setInputFiles(['rascunho-a.txt', 'rascunho-b.txt'].map(textFile));
  const chips = page.getByTestId('upload-chip');
  await expect(chips).toHaveCount(2);
  for (const chip of await chips.all()) await expect(chip).toHaveAttribute('data-status', 'done');
  // The list, loaded while the files wait for their message, has no chat for them.
  if (isMobile(info)) await expect(await loadedList(chats)).not.toContainText('Conversa sem título');
  // Leaving with a new page load (a closed tab, a typed address): nothing cleans up in the page.
  await loadedHome(page);
  await expect(page.getByText('Conversa sem título')).toHaveCount(0);
  await page.goto('/chats');
  await expect(await loadedList(chats)).not.toContainText('Conversa sem título');
});

test('a file over the server’s upload limit says so in full on its chip, before any upload', async ({
  page,
}, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/attachments')) uploads.push(r.url());
  });
  await chats.openNew();
  await page.getByTestId('file-input').setInputFiles({
    name: 'apresentacao-enorme.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(21 * 1024 * 1024, 1),
  });
  const chip = page.getByTestId('upload-chip');
  await expect(chip).toHaveAttribute('data-status', 'error');
  // The limit is the server's (UPLOAD_MAX_BYTES, 20 MiB by default), and the whole reason shows.
  const reason = chip.getByRole('alert');
  await expect(reason).toHaveText('Arquivo grande demais (máximo de 20 MB).');
  expect(
    await reason.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1),
  ).toBe(true);
  await shot(page, info, 'attachment-too-large');
  expect(uploads).toEqual([]);
});

test('a message the server refuses comes back to the composer with its file, to be sent again', async ({
  page,
}, info) => {
  // The e2e server has an instance-wide provider: the first send is refused here as a domain
  // without one would be (the server's side of that is in the agents integration tests).
  let refuse = true;
  await page.routeWebSocket(/\/api\/v1\/agents\/chat\/?$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { type: string; requestId?: string; chatId?: string };
      if (frame.type === 'chat.send' && refuse) {
        refuse = false;
        ws.send(
          JSON.stringify({
            type: 'error',
            requestId: frame.requestId,
            ...(frame.chatId ? { chatId: frame.chatId } : {}),
            code: 'NO_PROVIDER',
            message: 'No AI provider is configured for your domain.',
          }),
        );
        return;
      }
      server.send(message);
    });
  });
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await page.getByTestId('file-input').setInputFiles({
    name: 'pauta.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Pauta: orçamento e prazos.\n'),
  });
  const chip = page.getByTestId('upload-chip');
  await expect(chip).toHaveAttribute('data-status', 'done');
  const question = `Olá, tudo bem? ${tag()}`;
  await chats.send(question);
  await expect(page.getByTestId('chat-error')).toHaveAttribute('data-code', 'NO_PROVIDER');
  await expect(chats.composer).toHaveValue(question);
  await expect(chip).toContainText('pauta.txt');
  await expect(page).toHaveURL(/\/chats$/);
  await shot(page, info, 'refused-send');

  await chats.composer.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  const user = chats.messages.first();
  await expect(user).toContainText(question);
  await expect(user.getByRole('button', { name: /pauta\.txt/ })).toBeVisible();
  await chats.waitAnswerDone();
});

test('dragging files over a chat shows an opaque drop hint', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  const files = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['notas'], 'notas.txt', { type: 'text/plain' }));
    return transfer;
  });
  await page.getByTestId('composer').dispatchEvent('dragenter', { dataTransfer: files });
  const hint = page.getByText('Solte os arquivos para anexar');
  await expect(hint).toBeVisible();
  // The greeting behind must not show through the hint.
  const background = await hint.evaluate(
    (text) => getComputedStyle(text.parentElement as Element).backgroundColor,
  );
  expect(background).toBe('rgb(255, 255, 255)');
  await shot(page, info, 'drop');
  await page.getByTestId('composer').dispatchEvent('dragleave', { dataTransfer: files });
  await expect(hint).toBeHidden();
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
  const signedIn = await request.post('/identity/v1/accounts:signInWithPassword', {
    data: { email: people.viewer.email, password: PASSWORD, returnSecureToken: true },
  });
  const { idToken } = (await signedIn.json()) as { idToken: string };
  const made = await request.post('/api/v1/chats', {
    headers: { authorization: `Bearer ${idToken}` },
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
