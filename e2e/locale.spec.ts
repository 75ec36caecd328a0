import { expect, test } from '@playwright/test';
import { byProject, people } from './fixtures/env.ts';
import { signIn } from './pages/login.ts';

test('a locale prefix switches the language and is remembered in a cookie', async ({ page, context }) => {
  await page.goto('/en/auth/login');
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected');
  expect(cookie?.value).toBe('en');
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
  await page.goto('/auth/login');
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
});

test('Spanish texts under /es', async ({ page }) => {
  await page.goto('/es/auth/login');
  await expect(page.getByLabel('Contraseña', { exact: true })).toBeVisible();
});

test('without prefix or cookie the browser language is used, else pt-BR', async ({ browser }) => {
  const ctx = await browser.newContext({ locale: 'de-DE' });
  const page = await ctx.newPage();
  await page.goto('/auth/login');
  await expect(page.getByLabel('Senha', { exact: true })).toBeVisible();
  await ctx.close();
  const es = await browser.newContext({ locale: 'es-ES' });
  const esPage = await es.newPage();
  await esPage.goto('/auth/login');
  await expect(esPage.getByLabel('Contraseña', { exact: true })).toBeVisible();
  await es.close();
});

test('the language picked in the header is saved to the account and follows the person to another browser', async ({
  browser,
}, info) => {
  const person = byProject(info.project.name, people.languageDesktop, people.languageMobile);
  const first = await browser.newContext({ locale: 'pt-BR' });
  const page = await first.newPage();
  await signIn(page, person);
  await page.getByRole('button', { name: 'Idioma' }).click();
  const saved = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1/settings/profile' && r.request().method() === 'PUT',
  );
  await page.getByRole('menuitem', { name: 'English' }).click();
  expect((await saved).ok()).toBe(true);
  await expect(page.getByRole('button', { name: 'Language' })).toBeVisible();
  await first.close();

  // Another browser, whose own language is Portuguese, opens in the account's language.
  const second = await browser.newContext({ locale: 'pt-BR' });
  const other = await second.newPage();
  await signIn(other, person);
  await expect(other.getByRole('button', { name: 'Language' })).toBeVisible();
  await second.close();
});
