import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { choose, confirm, dialog, popup, rowAction, runTag, screenshot } from './pages/admin.ts';
import { signIn } from './pages/login.ts';

// Whole journeys through several dialogs: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('an Admin invites a user, finds, edits, deactivates and reactivates them', async ({ page }, info) => {
  const tag = runTag(info);
  const email = `nina-${tag}@acme.test`;
  await signIn(page, people.admin);
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Usuários', level: 1 })).toBeVisible();
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  await screenshot(page, info, 'users-list');

  // Invite: the shared schema refuses a bad email before anything is sent.
  await page.getByRole('button', { name: 'Convidar usuário' }).first().click();
  const invite = dialog(page, 'Convidar usuário');
  await invite.getByRole('textbox', { name: 'E-mail', exact: true }).fill('not-an-email');
  await invite.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Nina ${tag}`);
  await invite.getByRole('button', { name: 'Enviar convite' }).click();
  await expect(invite.getByText('Informe um e-mail válido.')).toBeVisible();
  await invite.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  // An Admin never grants more than Admin.
  const role = invite.getByRole('combobox', { name: 'Papel' });
  await expect(role.locator('option', { hasText: 'Superadministrador' })).toHaveCount(0);
  await choose(page, role, 'Editor');
  await screenshot(page, info, 'users-invite');
  await invite.getByRole('button', { name: 'Enviar convite' }).click();
  await expect(popup(page, 'Convite enviado')).toBeVisible();
  await expect(invite).toBeHidden();

  // Search (server side, debounced).
  await page.getByRole('searchbox').fill(tag);
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(row).toContainText('Editor');
  await screenshot(page, info, 'users-search');

  // Edit: name and role.
  await rowAction(page, row, 'Editar');
  const edit = dialog(page, 'Editar usuário');
  await edit.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Nina Editada ${tag}`);
  await choose(page, edit.getByRole('combobox', { name: 'Papel' }), 'Administrador');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText(`Nina Editada ${tag}`);
  await expect(row).toContainText('Administrador');

  // Deactivate (confirmed), then reactivate.
  await rowAction(page, row, 'Desativar');
  await confirm(page, 'Desativar usuário?', 'Desativar');
  await expect(row).toContainText('Inativo');
  await screenshot(page, info, 'users-deactivated');
  await rowAction(page, row, 'Reativar');
  await expect(row).not.toContainText('Inativo');

  // The status filter finds only inactive people.
  await page.getByRole('searchbox').fill('');
  await choose(page, page.getByRole('combobox', { name: 'Situação' }), 'Inativo');
  await expect(page.getByTestId('user-row').filter({ hasText: email })).toHaveCount(0);
});

test('an Admin deletes a user after confirming', async ({ page }, info) => {
  const tag = runTag(info);
  const email = `del-${tag}@acme.test`;
  await signIn(page, people.admin);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Convidar usuário' }).first().click();
  const invite = dialog(page, 'Convidar usuário');
  await invite.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await invite.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Davi ${tag}`);
  await invite.getByRole('textbox', { name: 'Nome', exact: true }).press('Enter');
  await expect(invite).toBeHidden();
  await page.getByRole('searchbox').fill(tag);
  const row = page.getByTestId('user-row').filter({ hasText: email });
  // The search's answer has arrived once the list holds only this user.
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await rowAction(page, row, 'Excluir');
  // Esc cancels: nothing is deleted.
  await expect(dialog(page, 'Excluir usuário?')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog(page, 'Excluir usuário?')).toBeHidden();
  await expect(row).toHaveCount(1);
  await rowAction(page, row, 'Excluir');
  await confirm(page, 'Excluir usuário?', 'Excluir');
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Nenhum usuário encontrado')).toBeVisible();
});

test('an Admin sees only their own domain’s users', async ({ page }) => {
  await signIn(page, people.basicAdmin);
  await page.goto('/users');
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  await expect(page.getByTestId('user-row').filter({ hasText: '@acme.test' })).toHaveCount(0);
  await page.getByRole('searchbox').fill('acme.test');
  await expect(page.getByText('Nenhum usuário encontrado')).toBeVisible();
});

test('a SuperAdmin sees every domain and filters by one', async ({ page }, info) => {
  await signIn(page, people.superAdmin);
  await page.goto('/users');
  // Narrowed by a search: other specs add people, and the list is paged.
  await page.getByRole('searchbox').fill('viewer@');
  await expect(page.getByTestId('user-row').filter({ hasText: 'viewer@basic.test' })).toHaveCount(1);
  await expect(page.getByTestId('user-row').filter({ hasText: 'viewer@acme.test' })).toHaveCount(1);
  await choose(page, page.getByRole('combobox', { name: 'Domínio' }), 'basic.test');
  await expect(page.getByTestId('user-row').filter({ hasText: 'viewer@acme.test' })).toHaveCount(0);
  await expect(page.getByTestId('user-row').filter({ hasText: 'viewer@basic.test' })).toHaveCount(1);
  await screenshot(page, info, 'users-superadmin');
});
