import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { confirm, dialog, popup, rowAction, runTag, screenshot } from './pages/admin.ts';
import { signIn } from './pages/login.ts';

// Whole journeys through several dialogs: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('an Admin creates, finds, renames, deactivates and deletes a department', async ({ page }, info) => {
  const tag = runTag(info);
  await signIn(page, people.admin);
  await page.goto('/departments');
  await expect(page.getByTestId('department-row').first()).toBeVisible();

  await page.getByRole('button', { name: 'Novo departamento' }).click();
  const create = dialog(page, 'Novo departamento');
  await create.getByRole('button', { name: 'Criar' }).click();
  await expect(create.getByText('Preencha este campo.')).toBeVisible();
  await create.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Equipe ${tag}`);
  await create.getByRole('textbox', { name: 'Nome', exact: true }).press('Enter');
  await expect(popup(page, `Departamento Equipe ${tag} criado`)).toBeVisible();

  await page.getByRole('searchbox').fill(tag);
  await expect(page.getByTestId('department-row')).toHaveCount(1);
  const row = page.getByTestId('department-row').first();
  await expect(row).toContainText(`Equipe ${tag}`);
  await screenshot(page, info, 'departments-search');

  await rowAction(page, row, 'Renomear');
  const rename = dialog(page, 'Renomear departamento');
  await rename.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Time ${tag}`);
  await rename.getByRole('button', { name: 'Salvar' }).click();
  await expect(row).toContainText(`Time ${tag}`);

  await rowAction(page, row, 'Desativar');
  await confirm(page, 'Desativar departamento?', 'Desativar');
  await expect(row).toContainText('Inativo');
  await screenshot(page, info, 'departments-deactivated');

  await rowAction(page, row, 'Excluir');
  await confirm(page, 'Excluir departamento?', 'Excluir');
  await expect(page.getByText('Nenhum departamento encontrado')).toBeVisible();
});

test('deleting a department that still has users is refused with a clear message', async ({ page }, info) => {
  await signIn(page, people.admin);
  await page.goto('/departments');
  const row = page.getByTestId('department-row').filter({ hasText: 'Geral' });
  await expect(row).toHaveCount(1);
  await rowAction(page, row, 'Excluir');
  const box = await confirm(page, 'Excluir departamento?', 'Excluir');
  await expect(box.getByRole('alert')).toContainText('ainda tem usuários');
  await screenshot(page, info, 'departments-409');
  await page.keyboard.press('Escape');
  await expect(row).toHaveCount(1);
});

test('a Viewer gets the 404 page on /departments', async ({ page }) => {
  await signIn(page, people.viewer);
  await page.goto('/departments');
  await expect(page.getByText('Página não encontrada')).toBeVisible();
});
