import { expect, test } from '@playwright/test';
import { PASSWORD, people } from './fixtures/env.ts';
import { LoginPage, signIn } from './pages/login.ts';

test('an unauthenticated visitor is sent to the login page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Esqueci minha senha' })).toBeVisible();
});

test('a user signs in, lands on the home page and stays signed in after a reload', async ({ page }) => {
  await signIn(page, people.viewer);
  await expect(page.getByText('Olá, Vera')).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Olá, Vera')).toBeVisible();
});

test('a wrong password shows a translated error and keeps the user on the login page', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(people.viewer, 'not-the-password-1');
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('alert')).not.toContainText('INVALID_LOGIN_CREDENTIALS');
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('a signed-in user opening the login page is sent home', async ({ page }) => {
  await signIn(page, people.viewer);
  await page.goto('/auth/login');
  await expect(page).toHaveURL(/\/$/);
});

test('after sign-in the user returns to the page they asked for', async ({ page }) => {
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/auth\/login\?redirect=/);
  await new LoginPage(page).signIn(people.viewer);
  await expect(page).toHaveURL(/\/settings$/);
});

test('signing out ends the session and guards the app again', async ({ page }) => {
  await signIn(page, people.viewer);
  const refresh = await page.evaluate(
    () => Object.keys(localStorage).length + Object.keys(sessionStorage).length,
  );
  expect(refresh).toBeGreaterThanOrEqual(0);
  await page
    .getByRole('button', { name: /Vera Viewer|conta|account/i })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('/auth redirects to the login page', async ({ page }) => {
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('the sign-in form refuses an empty password without calling the server', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  let calls = 0;
  page.on('request', (r) => {
    if (r.url().includes('signInWithPassword')) calls++;
  });
  await login.fill(people.viewer.email, '');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  expect(calls).toBe(0);
  await login.fill(people.viewer.email, PASSWORD);
});

test('a page opened at another address than PUBLIC_URL says where to go instead of blaming the network', async ({
  page,
  baseURL,
}) => {
  // The e2e server's PUBLIC_URL is http://localhost:PORT; 127.0.0.1 is the same server, another origin.
  const configured = new URL(baseURL ?? '');
  await page.goto(`http://127.0.0.1:${configured.port}/auth/login`);
  const notice = page.getByTestId('wrong-address');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(configured.origin);
  await expect(notice.getByRole('link')).toHaveAttribute('href', `${configured.origin}/auth/login`);
});

test('the redirect after sign-in keeps the address’s hash', async ({ page }) => {
  await page.goto('/settings?tab=terms#privacy');
  await expect(page).toHaveURL(/\/auth\/login\?redirect=/);
  await new LoginPage(page).signIn(people.viewer);
  await expect(page).toHaveURL(/\/settings\?tab=terms#privacy$/);
});

test('a server error from the last attempt does not stay beside new field errors', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(people.viewer, 'not-the-password-1');
  await expect(page.getByTestId('login-error')).toBeVisible();
  await page.getByLabel('E-mail').fill('');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByText('Informe seu e-mail.')).toBeVisible();
  await expect(page.getByTestId('login-error')).toHaveCount(0);
});

test('leaving a page while it renews its token does not sign the user out', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, people.viewer);
  await expect(page.getByText('Olá, Vera')).toBeVisible();
  // Every load renews the id token (docs/ARCHITECTURE.md#sessions-and-the-identity-client). Let the server rotate the refresh token, but never
  // hand the answer to the page, as when a reload or a click leaves it mid-request.
  let rotated: () => void = () => undefined;
  const serverRotated = new Promise<void>((resolve) => {
    rotated = resolve;
  });
  await page.route(/\/v1\/token(\?|$)/, async (route) => {
    await route.fetch();
    rotated();
  });
  await page.reload({ waitUntil: 'commit' });
  await serverRotated;
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/settings$/);
  await page.reload();
  await expect(page).toHaveURL(/\/settings$/);
  await page.goto('/');
  await expect(page.getByText('Olá, Vera')).toBeVisible();
});
