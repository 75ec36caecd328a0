import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { LoginPage, signIn } from './pages/login.ts';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

test('the login page hands a signed-in user over to the editor with a code the editor can exchange', async ({
  page,
  request,
}) => {
  await signIn(page, people.viewer);
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  // The e2e server's EDITOR_DEEP_LINK points at an app URL so the navigation can be observed.
  await page.goto(`/auth/login?provider=authkit&code_challenge=${challenge}&state=${state}`);
  await page.waitForURL(/\/editor-callback\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('state')).toBe(state);
  const code = url.searchParams.get('code');
  expect(code).toBeTruthy();

  const origin = new URL(page.url()).origin;
  const res = await request.post('/api/v1/user_management/token', {
    data: { code, code_verifier: verifier, redirect_uri: `${origin}/auth/login` },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { idToken: string; refreshToken: string; email: string };
  expect(body.email).toBe(people.viewer.email);

  // The code is single-use.
  const again = await request.post('/api/v1/user_management/token', {
    data: { code, code_verifier: verifier, redirect_uri: `${origin}/auth/login` },
  });
  expect(again.status()).toBe(400);
});

test('signing in on the handoff login page continues to the editor', async ({ page }) => {
  const { challenge } = pkce();
  const login = new LoginPage(page);
  await login.goto(`?provider=authkit&code_challenge=${challenge}&state=s1`);
  await login.signIn(people.viewer);
  await page.waitForURL(/\/editor-callback\?.*state=s1/);
});

test('a failed handoff shows the error popup with its details dialog', async ({ page }) => {
  await signIn(page, people.viewer);
  await page.goto('/auth/login?provider=authkit&code_challenge=too-short&state=s2');
  const popup = page.getByTestId('popup').filter({ hasText: 'Falha ao redirecionar para o VSCode' });
  await expect(popup).toBeVisible();
  await popup.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/details:/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: /tentar novamente/i })).toBeVisible();
  // The auto-hide timer is off while the dialog is open.
  await page.waitForTimeout(5500);
  await expect(dialog).toBeVisible();
  await dialog
    .getByRole('button', { name: /fechar|close/i })
    .first()
    .click();
});

test('the popup hides itself after 5 seconds', async ({ page }) => {
  await signIn(page, people.viewer);
  await page.goto('/auth/login?provider=authkit&code_challenge=too-short&state=s3');
  const popup = page.getByTestId('popup').filter({ hasText: 'Falha ao redirecionar para o VSCode' });
  await expect(popup).toBeVisible();
  await expect(popup).toBeHidden({ timeout: 7000 });
});
