import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  type TestInfo,
  test,
} from '@playwright/test';
import { chatsApiOf } from './fixtures/api.ts';
import { chatPeople } from './fixtures/chat-people.ts';
import {
  attachFile,
  ChatsPage,
  isMobile,
  loadedHome,
  shot,
  signInAs,
  tag,
  textFile,
  watchChats,
} from './pages/chats.ts';

// The chat journeys with files: attaching, uploading, sending, and what a new chat made for them leaves.

// Each test waits for a few streamed answers (a few seconds each).
test.describe.configure({ timeout: 90_000 });

const person = (info: TestInfo) => (isMobile(info) ? chatPeople.chatFlowMobile : chatPeople.chatFlowDesktop);

/** A new chat, the chats API of its person, and the chats the page makes and deletes from now on. */
async function openWatched(page: Page, request: APIRequestContext, info: TestInfo) {
  const chats = new ChatsPage(page, isMobile(info));
  const api = await chatsApiOf(request, person(info).email);
  const watched = watchChats(page);
  await chats.openNew();
  return { chats, api, ...watched };
}

test.beforeEach(async ({ page }, info) => {
  await signInAs(page, person(info));
});

test('a file is attached with upload progress and sent with the message', async ({ page }, info) => {
  const chats = new ChatsPage(page, isMobile(info));
  await chats.openNew();
  await attachFile(page, {
    name: 'notas.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Notas da reunião: revisar o orçamento.\n'),
  });
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
  const { chats, api, made, deleted } = await openWatched(page, request, info);
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
  const list = await chats.loadedList();
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
  const { chats, api, made, deleted } = await openWatched(page, request, info);
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
  if (isMobile(info)) await expect(await chats.loadedList()).not.toContainText('Conversa sem título');
  // Leaving with a new page load (a closed tab, a typed address): nothing cleans up in the page.
  await loadedHome(page);
  await expect(page.getByText('Conversa sem título')).toHaveCount(0);
  await page.goto('/chats');
  await expect(await chats.loadedList()).not.toContainText('Conversa sem título');
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
