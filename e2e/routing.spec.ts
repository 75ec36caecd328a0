import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { signIn } from './pages/login.ts';

test('an unknown path answers 404 and shows the error page with a way back', async ({ page }) => {
  await signIn(page, people.viewer);
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByText('Página não encontrada')).toBeVisible();
  await expect(page.getByText('404')).toBeVisible();
  // Looks like a button; it is a link to / so it also works without JavaScript.
  await page.getByRole('link', { name: 'Voltar' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a trailing slash is removed by a 308 keeping the query', async ({ request, page }) => {
  const res = await request.get('/auth/login/?a=1', { maxRedirects: 0 });
  expect(res.status()).toBe(308);
  expect(res.headers().location).toBe('/auth/login?a=1');
  await page.goto('/auth/login/?x=2');
  await expect(page).toHaveURL(/\/auth\/login\?x=2$/);
});

test('bots get a bare 404 without the app', async ({ request }) => {
  const res = await request.get('/no-such-page', { headers: { 'user-agent': 'Googlebot/2.1' } });
  expect(res.status()).toBe(404);
  expect(await res.text()).not.toContain('<script');
});

test('a malformed chat id fails the page validity check with the 404 page', async ({ page }) => {
  await signIn(page, people.viewer);
  await page.goto('/chats/not%20a%20valid%20id!');
  await expect(page.getByText('Página não encontrada')).toBeVisible();
});

test('premium routes are hidden from users of a non-premium domain', async ({ page }) => {
  await signIn(page, people.basicViewer);
  await page.goto('/santitos');
  await expect(page.getByText('Página não encontrada')).toBeVisible();
  await page.goto('/integration');
  await expect(page.getByText('Página não encontrada')).toBeVisible();
});

test('premium routes open for users of a premium domain', async ({ page }) => {
  await signIn(page, people.viewer);
  await page.goto('/santitos');
  await expect(page.getByText('Página não encontrada')).toHaveCount(0);
});

test('admin screens show the 404 page to a Viewer and open for a SuperAdmin', async ({ page }) => {
  await signIn(page, people.viewer);
  await page.goto('/users');
  await expect(page.getByText('Página não encontrada')).toBeVisible();
  await page.goto('/domains');
  await expect(page.getByText('Página não encontrada')).toBeVisible();
  await page.goto('/usage');
  await expect(page.getByText('Página não encontrada')).toBeVisible();
});

test('a SuperAdmin reaches every management screen', async ({ page }) => {
  await signIn(page, people.superAdmin);
  for (const path of [
    '/users',
    '/domains',
    '/departments',
    '/integration',
    '/usage',
    '/settings',
    '/chats',
  ]) {
    await page.goto(path);
    await expect(page.getByText('Página não encontrada')).toHaveCount(0);
  }
});

test('the embedded pages use their own layout without the account sign-in', async ({ page }) => {
  await page.goto('/embedded/va_demo/chats');
  await expect(page).toHaveURL(/\/embedded\/va_demo\/chats$/);
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toHaveCount(0);
});

test('the top progress bar shows from the first paint of a first load, and goes once the page is ready', async ({
  page,
}) => {
  // A slow network for the app's code: the bar must show while it loads.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/auth/login', { waitUntil: 'commit' });
  await expect(page.getByTestId('top-progress')).toBeVisible();
  release();
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
  await expect(page.getByTestId('top-progress')).toHaveCount(0);
});
