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
  let submitted = 0;
  page.on('request', (r) => {
    if (r.url().includes('/user_management/login_submit')) submitted++;
  });
  // The e2e server's EDITOR_DEEP_LINK points at an app URL so the navigation can be observed.
  await page.goto(`/auth/login?provider=authkit&code_challenge=${challenge}&state=${state}`);
  // A browser opens vscode:// from a click only: nothing is minted or opened before it.
  const open = page.getByRole('button', { name: 'Abrir o VS Code' });
  await expect(open).toBeVisible();
  expect(submitted).toBe(0);
  await open.click();
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

test('a browser-hosted editor on an allow-listed origin gets the code only after the user confirms', async ({
  page,
  request,
}) => {
  await signIn(page, people.viewer);
  const { verifier, challenge } = pkce();
  const appOrigin = new URL(page.url()).origin;
  const editorOrigin = `http://127.0.0.1:${new URL(page.url()).port}`;
  const callback = `${editorOrigin}/editor-callback?vscode-reqid=7&vscode-scheme=code-oss`;
  let submitted = 0;
  page.on('request', (r) => {
    if (r.url().includes('/user_management/login_submit')) submitted++;
  });
  const query = new URLSearchParams({
    provider: 'authkit',
    code_challenge: challenge,
    state: 'cb1',
    callback,
  });
  await page.goto(`/auth/login?${query}`);
  await expect(page.getByRole('heading', { name: `Conectar o VS Code em ${editorOrigin}?` })).toBeVisible();
  // Nothing is minted while the question is open.
  await page.waitForTimeout(500);
  expect(submitted).toBe(0);
  await page.getByRole('button', { name: 'Conectar' }).click();
  await page.waitForURL((url) => url.origin === editorOrigin && url.searchParams.get('state') === 'cb1');
  const url = new URL(page.url());
  expect(url.searchParams.get('vscode-reqid')).toBe('7');
  const code = url.searchParams.get('code');
  expect(code).toBeTruthy();
  const res = await request.post('/api/v1/user_management/token', {
    data: {
      code,
      code_verifier: verifier,
      redirect_uri: `${appOrigin}/auth/login`,
    },
  });
  expect(res.status()).toBe(200);
});

test('cancelling the confirmation sends no code', async ({ page }) => {
  await signIn(page, people.viewer);
  const { challenge } = pkce();
  const callback = `http://127.0.0.1:${new URL(page.url()).port}/editor-callback`;
  const query = new URLSearchParams({
    provider: 'authkit',
    code_challenge: challenge,
    state: 'cb2',
    callback,
  });
  await page.goto(`/auth/login?${query}`);
  await page.getByRole('link', { name: 'Cancelar' }).click();
  await expect(page.getByRole('heading', { name: /Conectar o VS Code/ })).toHaveCount(0);
  await expect(page).not.toHaveURL(/editor-callback|code=/);
});

test('a callback on an origin the operator did not allow is refused and no code is minted', async ({
  page,
}) => {
  await signIn(page, people.viewer);
  let submitted = 0;
  page.on('request', (r) => {
    if (r.url().includes('/user_management/login_submit')) submitted++;
  });
  const { challenge } = pkce();
  const query = new URLSearchParams({
    provider: 'authkit',
    code_challenge: challenge,
    state: 'cb3',
    callback: 'http://127.0.0.3:9/callback',
  });
  await page.goto(`/auth/login?${query}`);
  await expect(page.getByRole('alert').getByText('Endereço do editor não permitido')).toBeVisible();
  await expect(page.getByText(/não envia entradas para http:\/\/127\.0\.0\.3:9/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Conectar' })).toHaveCount(0);
  expect(submitted).toBe(0);
  expect(page.url()).toContain('/auth/login');
});

test('signing in on the handoff login page continues to the editor', async ({ page }) => {
  const { challenge } = pkce();
  const login = new LoginPage(page);
  await login.goto(`?provider=authkit&code_challenge=${challenge}&state=s1`);
  await login.signIn(people.viewer);
  await page.getByRole('button', { name: 'Abrir o VS Code' }).click();
  await page.waitForURL(/\/editor-callback\?.*state=s1/);
});

test('a failed handoff shows the error popup with its details dialog', async ({ page }) => {
  await signIn(page, people.viewer);
  await page.goto('/auth/login?provider=authkit&code_challenge=too-short&state=s2');
  await page.getByRole('button', { name: 'Abrir o VS Code' }).click();
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
  await page.getByRole('button', { name: 'Abrir o VS Code' }).click();
  const popup = page.getByTestId('popup').filter({ hasText: 'Falha ao redirecionar para o VSCode' });
  await expect(popup).toBeVisible();
  await expect(popup).toBeHidden({ timeout: 7000 });
});
