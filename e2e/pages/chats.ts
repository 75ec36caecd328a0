import {
  type Browser,
  type Download,
  expect,
  type Frame,
  type Locator,
  type Page,
  type TestInfo,
} from '@playwright/test';
import { PASSWORD } from '../fixtures/env.ts';
import { LoginPage } from './login.ts';

/** Signs in and waits for the home page (generously: the e2e machine may be busy). */
export async function signInAs(
  page: Page,
  person: { email: string; role: string; domain: string; name: string },
) {
  const login = new LoginPage(page);
  await login.goto();
  await login.fill(person.email, PASSWORD);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByTestId('home-greeting')).toBeVisible({ timeout: 30_000 });
}

/** Another person signed in beside the test's own page: a browser context of their own, sized as the project's. */
export async function signInElsewhere(
  browser: Browser,
  person: Parameters<typeof signInAs>[1],
  mobile: boolean,
): Promise<Page> {
  const context = await browser.newContext(
    mobile
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'pt-BR' }
      : { locale: 'pt-BR' },
  );
  const page = await context.newPage();
  await signInAs(page, person);
  return page;
}

/** A screenshot kept as a test artifact (in the test's output directory, attached to the report). */
export async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.waitForTimeout(250);
  const path = info.outputPath(`${name}-${info.project.name}.png`);
  await page.screenshot({ path });
  await info.attach(`${name}-${info.project.name}`, { path, contentType: 'image/png' });
}

export const isMobile = (info: TestInfo) => info.project.name === 'mobile';

/** A short random tag that keeps one run's chats apart from another's. */
export const tag = () => Math.random().toString(36).slice(2, 8);

/** A small text file for `setInputFiles`, its content its own name. */
export const textFile = (name: string) => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(`${name}\n`),
});

/** A download's content as text. */
export async function downloadedText(download: Download): Promise<string> {
  return Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
}

/** Attaches one file through the composer of `scope` (a page, or an embedded chat's frame) and waits for its upload. */
export async function attachFile(
  scope: Page | Frame,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<Locator> {
  await scope.getByTestId('file-input').setInputFiles(file);
  const chip = scope.getByTestId('upload-chip');
  await expect(chip).toContainText(file.name);
  await expect(chip).toHaveAttribute('data-status', 'done');
  return chip;
}

/** Counts the chats the page makes and deletes. */
export function watchChats(page: Page) {
  const made: string[] = [];
  const deleted: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'POST' && path === '/api/v1/chats') made.push(path);
    if (r.method() === 'DELETE' && path.startsWith('/api/v1/chats/')) deleted.push(path);
  });
  return { made, deleted };
}

/** The home page's recent chats once loaded (or its "no chats yet" panel). */
export async function loadedHome(page: Page): Promise<void> {
  await page.goto('/');
  await expect(
    page.getByTestId('recent-chats').or(page.getByText('Escreva acima para começar sua primeira conversa.')),
  ).toBeVisible();
}

/** The chat screens: sidebar list, messages, composer. */
export class ChatsPage {
  constructor(
    readonly page: Page,
    readonly mobile: boolean,
  ) {}

  get composer(): Locator {
    return this.page.getByTestId('composer-input').last();
  }

  get messages(): Locator {
    return this.page.locator('[data-testid="message"]');
  }

  get assistant(): Locator {
    return this.page.locator('[data-testid="message"][data-role="assistant"]');
  }

  get lastAnswer(): Locator {
    return this.assistant.last();
  }

  get list(): Locator {
    return this.page.getByTestId('chats-list');
  }

  /** A new chat, with the socket ready to send. */
  async openNew(): Promise<void> {
    await this.page.goto('/chats');
    await expect(this.composer).toBeVisible();
    await this.waitOnline();
  }

  /**
   * The socket is ready: no connection badge, and the composer takes messages (before the socket
   * starts connecting neither shows a badge, but the composer already says it cannot send).
   */
  async waitOnline(): Promise<void> {
    await expect(this.page.getByTestId('connection-state')).toHaveCount(0, { timeout: 15_000 });
    await expect(this.composer).not.toHaveAttribute('placeholder', /Sem conexão/, { timeout: 15_000 });
  }

  async send(text: string): Promise<void> {
    await this.composer.fill(text);
    await this.composer.press('Enter');
  }

  /** Sends and waits for the chat's own page (`/chats/{uuid}`). */
  async startChat(text: string): Promise<string> {
    await this.send(text);
    await this.page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
    return new URL(this.page.url()).pathname.split('/').pop() ?? '';
  }

  async waitAnswerDone(answer: Locator = this.lastAnswer): Promise<void> {
    await expect(answer).toHaveAttribute('data-status', /complete|stopped|error/, { timeout: 20_000 });
  }

  /** Opens the chats list: always visible on desktop, a drawer on a phone. */
  async openList(): Promise<Locator> {
    if (this.mobile && !(await this.list.isVisible())) {
      await this.page.getByTestId('open-chats-list').click();
    }
    await expect(this.list).toBeVisible();
    return this.list;
  }

  /** The chats list once its first page is in (an empty list says nothing while it loads). */
  async loadedList(): Promise<Locator> {
    const list = await this.openList();
    await expect(list).toHaveAttribute('data-total', /^\d+$/);
    await expect(list).not.toHaveAttribute('aria-busy', 'true');
    return list;
  }

  /** Edits a user message and resends it: a new branch beside the old one. */
  async editAndResend(message: Locator, text: string): Promise<void> {
    await message.hover();
    await message.getByRole('button', { name: 'Editar e reenviar' }).click();
    await this.page.getByRole('textbox', { name: 'Editar mensagem' }).fill(text);
    await this.page.getByRole('button', { name: 'Salvar e enviar' }).click();
  }

  item(title: string | RegExp): Locator {
    return this.list.getByTestId('chat-list-item').filter({ hasText: title });
  }

  /** Picks an action of a chat's row menu (rename, pin, delete…). */
  async rowAction(title: string | RegExp, action: string): Promise<void> {
    const row = this.item(title).first();
    await row.getByRole('button', { name: /^Ações da conversa/ }).click();
    await this.page.getByRole('menuitem', { name: action, exact: true }).click();
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Buscar conversas' }).fill(text);
  }
}
