import { expect, type Page, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { SSO } from './fixtures/sso.ts';
import { confirm, dialog, runTag, screenshot } from './pages/admin.ts';
import { signIn } from './pages/login.ts';

test.describe.configure({ timeout: 90_000 });

const issuer = () => {
  const url = process.env.E2E_OIDC_ISSUER;
  if (!url) throw new Error('E2E_OIDC_ISSUER is set by the global setup');
  return url;
};

/** At the identity provider's own page (oidc-provider on loopback): sign in as `email`. */
async function signInAtProvider(page: Page, email: string, opts: { verified?: boolean } = {}) {
  await expect(page).toHaveURL(
    new RegExp(`^${issuer().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/interaction/`),
  );
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  if (opts.verified === false) await page.getByLabel('E-mail verified').uncheck();
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a new employee signs in with the company provider and lands where they were going', async ({
  page,
}, info) => {
  const email = `sso-new-${runTag(info)}@acme.test`.toLowerCase();
  await page.goto('/auth/login?redirect=%2Fsettings');
  const button = page.getByRole('link', { name: `Entrar com ${SSO.displayName}` });
  await expect(button).toBeVisible();
  // The old placeholders are gone: only configured providers have buttons.
  await expect(page.getByText('Entrar com Confluence')).toHaveCount(0);
  await screenshot(page, info, 'sso-login-pt-BR');

  await button.click();
  await signInAtProvider(page, email);

  // A first sign-in creates the account; its terms of use come first.
  const terms = dialog(page, 'Termos de uso e política de privacidade');
  await expect(terms).toBeVisible({ timeout: 15_000 });
  await terms.getByRole('button', { name: 'Aceitar' }).click();
  await expect(terms).toBeHidden();
  await expect(page).toHaveURL(/\/settings$/);
  // The one-time code never stays in the address.
  expect(page.url()).not.toContain('ssoCode');
  await screenshot(page, info, 'sso-signed-in');

  // An ordinary session: it survives a reload (refresh token stored as after a password sign-in).
  await page.reload();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toHaveCount(0);
});

test('an existing user signs in with the provider', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByRole('link', { name: `Entrar com ${SSO.displayName}` }).click();
  await signInAtProvider(page, people.viewer.email);
  await expect(page.getByTestId('home-greeting')).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/$/);
});

test('an e-mail outside the provider’s domains is refused with a clear message, and nothing is created', async ({
  page,
}, info) => {
  await page.goto('/auth/login');
  await page.getByRole('link', { name: `Entrar com ${SSO.displayName}` }).click();
  await signInAtProvider(page, `someone-${runTag(info)}@evil.test`);
  const alert = page.getByTestId('sso-error');
  await expect(alert).toContainText('Este e-mail não pertence a um domínio liberado para este acesso.');
  await expect(page).toHaveURL(/\/auth\/login\?ssoError=SSO_DOMAIN_NOT_ALLOWED$/);
  await screenshot(page, info, 'sso-refused-domain-pt-BR');
  // Still signed out: the password form is there.
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
});

test('an unverified e-mail is refused, in the language of the page', async ({ page }, info) => {
  await page.goto('/en/auth/login');
  await page.getByRole('link', { name: `Sign in with ${SSO.displayName}` }).click();
  await signInAtProvider(page, `unverified-${runTag(info)}@acme.test`, { verified: false });
  await expect(page).toHaveURL(/\/en\/auth\/login\?ssoError=SSO_EMAIL_NOT_VERIFIED$/);
  await expect(page.getByTestId('sso-error')).toContainText(
    'Your email is not verified at the identity provider.',
  );
  await screenshot(page, info, 'sso-unverified-en');
});

test('a SuperAdmin adds, edits and removes a provider in /integration, with its redirect URI to copy', async ({
  page,
  baseURL,
}, info) => {
  const name = `Entra ${runTag(info)}`;
  await signIn(page, people.superAdmin);
  await page.goto('/integration');
  await page.getByRole('tab', { name: 'Login único (SSO)' }).click();
  await expect(page).toHaveURL(/tab=sso/);
  const settings = page.getByTestId('sso-settings');
  const envCard = settings.getByTestId('sso-provider-row').filter({ hasText: SSO.displayName });
  await expect(envCard).toContainText('Definido no servidor');
  await expect(envCard.getByTestId('sso-redirect-uri')).toHaveText(`${baseURL}/identity/sso/env/callback`);
  await expect(envCard.getByRole('button', { name: 'Copiar URI de redirecionamento' })).toBeVisible();

  await page.getByRole('button', { name: 'Adicionar provedor' }).click();
  const add = dialog(page, 'Adicionar provedor');
  await add.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(add.getByText('Informe um nome.')).toBeVisible();
  await add.getByRole('textbox', { name: 'Nome no botão' }).fill(name);
  // A private address is refused (the SSRF rule); the test provider's is allow-listed.
  await add.getByRole('textbox', { name: 'Emissor (issuer)' }).fill('https://10.1.2.3');
  await add.getByRole('textbox', { name: 'ID do cliente' }).fill('entra-client');
  await add.getByLabel('Segredo do cliente').fill('entra-secret-value-123');
  const domains = add.getByLabel('Domínios de e-mail');
  await domains.fill('acme.test');
  await domains.press('Enter');
  await add.getByRole('switch', { name: 'Criar contas no primeiro acesso' }).click({ force: true });
  // The redirect URI is there to register before saving, and is the one the saved provider gets.
  const draftUri = add.getByTestId('sso-redirect-uri');
  await expect(draftUri).toHaveText(new RegExp(`^${baseURL}/identity/sso/sso[0-9a-f]{12}/callback$`));
  const registered = await draftUri.textContent();
  await screenshot(page, info, 'sso-form');
  await add.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(
    add.getByText(/^10\.1\.2\.3 é um endereço de rede privada\. Use um endereço público/),
  ).toBeVisible();
  await add.getByRole('textbox', { name: 'Emissor (issuer)' }).fill(issuer());
  await add.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(add).toBeHidden();

  const card = settings.getByTestId('sso-provider-row').filter({ hasText: name });
  await expect(card).toContainText('cria contas como Leitor');
  await expect(card.getByTestId('sso-redirect-uri')).toHaveText(registered ?? '');
  // The secret never comes back to the browser.
  await expect(page.getByText('entra-secret-value-123')).toHaveCount(0);
  await screenshot(page, info, 'sso-list');

  await card.getByRole('button', { name: 'Editar' }).click();
  const edit = dialog(page, `Editar ${name}`);
  await expect(edit.getByText('Um segredo está guardado; deixe em branco para mantê-lo.')).toBeVisible();
  await edit.getByRole('textbox', { name: 'Nome no botão' }).fill(`${name} 2`);
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  const renamed = settings.getByTestId('sso-provider-row').filter({ hasText: `${name} 2` });
  await expect(renamed).toBeVisible();

  // The login page offers it at once.
  const other = await page.context().browser()?.newContext({ baseURL });
  if (other) {
    const anon = await other.newPage();
    await anon.goto('/auth/login');
    await expect(anon.getByRole('link', { name: `Entrar com ${name} 2` })).toBeVisible();
    await other.close();
  }

  await renamed.getByRole('button', { name: 'Excluir' }).click();
  const ask = await confirm(page, 'Remover provedor de login', 'Excluir');
  await expect(ask).toBeHidden();
  await expect(renamed).toHaveCount(0);
});
