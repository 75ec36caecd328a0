import { expect, test } from '@playwright/test';

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
