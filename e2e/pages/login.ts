import { expect, type Page } from '@playwright/test';
import { PASSWORD, type Person } from '../fixtures/env.ts';

export class LoginPage {
  constructor(readonly page: Page) {}

  async goto(query = '', prefix = '') {
    await this.page.goto(`${prefix}/auth/login${query}`);
    await expect(this.page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
  }

  async fill(email: string, password: string) {
    await this.page.getByLabel('E-mail').fill(email);
    await this.page.getByLabel('Senha', { exact: true }).fill(password);
  }

  async signIn(person: Person, password = PASSWORD) {
    await this.fill(person.email, password);
    await this.page.getByRole('button', { name: 'Entrar', exact: true }).click();
  }
}

/** Signs in through the login page and waits for the home page. */
export async function signIn(page: Page, person: Person, password = PASSWORD): Promise<void> {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(person, password);
  await expect(page).toHaveURL(/\/$/);
}
