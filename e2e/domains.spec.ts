import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { confirm, dialog, popup, rowAction, runTag, screenshot } from './pages/admin.ts';
import { signIn } from './pages/login.ts';

// Whole journeys through several dialogs: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('a SuperAdmin creates, finds, edits, deactivates and deletes a domain; the CNPJ is checked', async ({
  page,
}, info) => {
  const tag = runTag(info);
  const name = `e2e-${tag}.com.br`;
  await signIn(page, people.superAdmin);
  await page.goto('/domains');
  await expect(page.getByTestId('domain-row').first()).toBeVisible();
  await screenshot(page, info, 'domains-list');

  await page.getByRole('button', { name: 'Novo domínio' }).click();
  const create = dialog(page, 'Novo domínio');
  await create.getByRole('textbox', { name: 'Domínio', exact: true }).fill(name);
  await create.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Empresa ${tag}`);
  await create.getByLabel('CNPJ').fill('11.222.333/0001-82');
  await create.getByRole('button', { name: 'Criar' }).click();
  await expect(create.getByText('CNPJ inválido: confira os dígitos verificadores.')).toBeVisible();
  await screenshot(page, info, 'domains-cnpj-error');
  // The alphanumeric format (in use since July 2026) is accepted, and shown punctuated.
  await create.getByLabel('CNPJ').fill('12abc34501de35');
  await create.getByRole('textbox', { name: 'Nome', exact: true }).click();
  await expect(create.getByLabel('CNPJ')).toHaveValue('12.ABC.345/01DE-35');
  await create.getByRole('button', { name: 'Criar' }).click();
  await expect(popup(page, `Domínio Empresa ${tag} criado`)).toBeVisible();
  await expect(create).toBeHidden();

  await page.getByRole('searchbox').fill(tag);
  const row = page.getByTestId('domain-row').filter({ hasText: name });
  await expect(page.getByTestId('domain-row')).toHaveCount(1);
  await expect(row).toContainText('12.ABC.345/01DE-35');

  await rowAction(page, row, 'Editar');
  const edit = dialog(page, 'Editar domínio');
  await expect(edit.getByRole('textbox', { name: 'Domínio', exact: true })).toBeDisabled();
  await edit.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Empresa Editada ${tag}`);
  await edit.getByRole('switch', { name: /^Premium/ }).click();
  await edit.getByRole('switch', { name: /^Ativo/ }).click();
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText(`Empresa Editada ${tag}`);
  await expect(row).toContainText('Premium');
  await expect(row).toContainText('Inativo');
  await screenshot(page, info, 'domains-edited');

  await rowAction(page, row, 'Excluir');
  await confirm(page, 'Excluir domínio?', 'Excluir');
  await expect(row).toHaveCount(0);
});

test('deleting a domain that still has users is refused with a clear message', async ({ page }, info) => {
  await signIn(page, people.superAdmin);
  await page.goto('/domains');
  await page.getByRole('searchbox').fill('basic.test');
  const row = page.getByTestId('domain-row').filter({ hasText: 'basic.test' });
  await expect(row).toHaveCount(1);
  await rowAction(page, row, 'Excluir');
  const box = await confirm(page, 'Excluir domínio?', 'Excluir');
  await expect(box.getByRole('alert')).toContainText('ainda tem usuários');
  await screenshot(page, info, 'domains-409');
  await box.getByRole('button', { name: 'Cancelar' }).click();
  await expect(row).toHaveCount(1);
});

test('an Admin sees their own domain, read-only', async ({ page }, info) => {
  await signIn(page, people.admin);
  await page.goto('/domains');
  const card = page.getByTestId('own-domain');
  await expect(card).toContainText('acme.test');
  await expect(card).toContainText('Só um superadministrador pode alterar os dados do domínio.');
  await expect(page.getByRole('button', { name: 'Novo domínio' })).toHaveCount(0);
  await screenshot(page, info, 'domains-admin');
});
