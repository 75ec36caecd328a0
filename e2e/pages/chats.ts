import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
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

/** A screenshot kept as a test artifact (in the test's output directory, attached to the report). */
export async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.waitForTimeout(250);
  const path = info.outputPath(`${name}-${info.project.name}.png`);
  await page.screenshot({ path });
  await info.attach(`${name}-${info.project.name}`, { path, contentType: 'image/png' });
}

export const isMobile = (info: TestInfo) => info.project.name === 'mobile';

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
