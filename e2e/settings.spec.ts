import { expect, test } from '@playwright/test';
import { byProject, PASSWORD, people } from './fixtures/env.ts';
import { choose, confirm, dialog, popup, runTag, screenshot } from './pages/admin.ts';
import { LoginPage, signIn } from './pages/login.ts';

// Whole journeys through several dialogs: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('profile: a user renames themself and switches the interface language', async ({ page }, info) => {
  const person = byProject(info.project.name, people.profileDesktop, people.profileMobile);
  const tag = runTag(info);
  await signIn(page, person);
  await page.goto('/settings');
  await expect(page.getByRole('tab', { name: 'Perfil' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Auditoria' })).toHaveCount(0);
  await screenshot(page, info, 'settings-profile');
  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Nome ${tag}`);
  await choose(page, page.getByRole('combobox', { name: 'Idioma' }), 'English');
  await page.getByRole('button', { name: 'Salvar' }).click();
  // The interface follows the chosen language at once.
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Profile' })).toBeVisible();
  await screenshot(page, info, 'settings-profile-en');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`Nome ${tag}`);
});

test('password: re-authentication, the live policy, and the old password stops working', async ({
  page,
}, info) => {
  const person = byProject(info.project.name, people.passwordDesktop, people.passwordMobile);
  const next = `Nova-${runTag(info)}-Senha7`;
  await signIn(page, person);
  await page.goto('/settings?tab=password');
  const policy = page.getByTestId('password-policy');
  await page.getByLabel(/^Nova senha/).fill('abc');
  await expect(policy.locator('li:not([data-met])').first()).toBeVisible();
  // A password the server refuses as common is unmet in the checklist before anything is sent.
  await page.getByLabel(/^Nova senha/).fill('12345678');
  const notCommon = policy.locator('li', { hasText: 'Não é uma senha comum nem o seu e-mail' });
  await expect(notCommon).toBeVisible();
  await expect(notCommon).not.toHaveAttribute('data-met');
  await page.getByLabel(/^Senha atual/).fill('not-my-password-1');
  await page.getByLabel(/^Nova senha/).fill(next);
  await expect(policy.locator('li:not([data-met])')).toHaveCount(0);
  await page.getByLabel(/^Confirme a nova senha/).fill(next);
  await page.getByRole('button', { name: 'Alterar senha' }).click();
  await expect(page.getByText('A senha atual está incorreta.')).toBeVisible();
  await screenshot(page, info, 'settings-password');

  await page.getByLabel(/^Senha atual/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Alterar senha' }).click();
  await expect(popup(page, 'Senha alterada')).toBeVisible();
  // This tab keeps working with the new session's tokens.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Senha' })).toBeVisible();
  await page.goto('/settings?tab=sessions');
  await expect(page.getByTestId('session-row')).toHaveCount(1);

  const other = await page.context().browser()?.newContext();
  if (!other) throw new Error('no browser');
  const login = new LoginPage(await other.newPage());
  await login.goto();
  await login.signIn(person, PASSWORD);
  await expect(login.page.getByRole('alert')).toBeVisible();
  await login.signIn(person, next);
  await expect(login.page).toHaveURL(/\/$/);
  await other.close();
});

test('sessions: the current one is marked, another is ended, then sign out everywhere', async ({
  page,
  browser,
}, info) => {
  const person = byProject(info.project.name, people.sessionsDesktop, people.sessionsMobile);
  const second = await browser.newContext();
  const secondPage = await second.newPage();
  await signIn(secondPage, person);
  await signIn(page, person);

  await page.goto('/settings?tab=sessions');
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  const current = rows.filter({ hasText: 'Esta sessão' });
  await expect(current).toHaveCount(1);
  await screenshot(page, info, 'settings-sessions');

  const others = rows.filter({ hasNotText: 'Esta sessão' });
  await others.getByRole('button', { name: 'Encerrar' }).click();
  await confirm(page, 'Encerrar sessão?', 'Encerrar');
  await expect(rows).toHaveCount(1);
  // The ended session is signed out on its next request.
  await secondPage.goto('/settings');
  await expect(secondPage).toHaveURL(/\/auth\/login/);
  await second.close();

  await page.getByRole('button', { name: 'Sair de todos os dispositivos' }).click();
  await confirm(page, 'Sair de todos os dispositivos?', 'Sair de todos');
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('audit log: an Admin sees their changes and filters them', async ({ page }, info) => {
  const tag = runTag(info);
  await signIn(page, people.admin);
  await page.goto('/departments');
  await page.getByRole('button', { name: 'Novo departamento' }).click();
  const create = dialog(page, 'Novo departamento');
  await create.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Auditado ${tag}`);
  await create.getByRole('button', { name: 'Criar' }).click();
  await expect(create).toBeHidden();

  await page.goto('/settings?tab=audit');
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toBeVisible();
  await choose(page, page.getByRole('combobox', { name: 'Ação' }), 'Departamento criado');
  const mine = rows.filter({ has: page.getByText('por admin@acme.test') }).first();
  await expect(mine).toContainText('Departamento criado');
  await mine
    .getByRole('button', { name: /Alterações/ })
    .first()
    .click();
  await expect(rows.filter({ hasText: `Auditado ${tag}` })).toHaveCount(1);
  await screenshot(page, info, 'settings-audit');

  // Filters: by actor, and a date range that excludes everything.
  await page.getByLabel('Autor').fill('nobody@acme.test');
  await expect(page.getByText('Nenhum registro encontrado')).toBeVisible();
  await page.getByLabel('Autor').fill('admin@acme.test');
  await expect(rows.first()).toBeVisible();
  await page.getByLabel('Até').fill('2020-01-01');
  await expect(page.getByText('Nenhum registro encontrado')).toBeVisible();
});

test('domain settings: a new EULA version asks the domain’s users to accept again', async ({
  page,
}, info) => {
  const tag = runTag(info);
  const domainName = `termos-${tag}.test`;
  // A domain of its own, so no other test's users are asked to accept again.
  await signIn(page, people.superAdmin);
  await page.goto('/domains');
  await page.getByRole('button', { name: 'Novo domínio' }).click();
  const create = dialog(page, 'Novo domínio');
  await create.getByRole('textbox', { name: 'Domínio', exact: true }).fill(domainName);
  await create.getByRole('textbox', { name: 'Nome', exact: true }).fill(domainName);
  await create.getByRole('button', { name: 'Criar' }).click();
  await expect(create).toBeHidden();

  await page.goto('/settings?tab=domain');
  await choose(page, page.getByRole('combobox', { name: 'Domínio' }), domainName);
  await expect(page.getByTestId('eula-version')).toHaveText('v1');
  await page.getByLabel('Nova versão').fill('v1');
  await page.getByRole('button', { name: 'Publicar nova versão' }).click();
  await expect(page.getByText('Esta já é a versão atual.')).toBeVisible();
  await page.getByLabel('Nova versão').fill('v2');
  await page.getByRole('button', { name: 'Publicar nova versão' }).click();
  await confirm(page, 'Publicar nova versão dos termos?', 'Publicar nova versão');
  await expect(page.getByTestId('eula-version')).toHaveText('v2');
  await screenshot(page, info, 'settings-domain');
});

test('profile: saving while offline says so at once instead of spinning', async ({ page, context }, info) => {
  await signIn(page, people.viewer);
  await page.goto('/settings');
  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Offline ${runTag(info)}`);
  await context.setOffline(true);
  try {
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(popup(page, 'Não foi possível salvar o perfil')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('Não foi possível conectar ao servidor')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Salvar' })).not.toHaveAttribute('data-loading');
  } finally {
    await context.setOffline(false);
  }
});
