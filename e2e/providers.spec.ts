import { expect, test } from '@playwright/test';
import { byProject, people } from './fixtures/env.ts';
import { choose, confirm, dialog, runTag, screenshot } from './pages/admin.ts';
import { signIn } from './pages/login.ts';

test.describe.configure({ timeout: 90_000 });

test('an Admin connects a provider, tests it, picks the default model, edits and removes it', async ({
  page,
}, info) => {
  const admin = byProject(info.project.name, people.modelsDesktop, people.modelsMobile);
  const llmUrl = process.env.E2E_LLM_URL;
  if (!llmUrl) throw new Error('E2E_LLM_URL is set by the global setup');
  const label = `Laboratório ${runTag(info)}`;
  const secret = 'sk-e2e-secret-7f3a9c';

  await signIn(page, admin);
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Modelos de IA' }).click();
  await expect(page).toHaveURL(/tab=providers/);
  const settings = page.getByTestId('providers-settings');
  await expect(settings.getByText('Nenhum provedor configurado para o domínio')).toBeVisible();
  // The instance's provider (OPENAI_BASE_URL) answers: its models are listed, read-only, its kind translated.
  const instance = settings.getByTestId('instance-provider-row');
  await expect(instance).toContainText('Compatível com OpenAI');
  await expect(instance).toContainText('fixture-small');
  await expect(instance.getByRole('button')).toHaveCount(0);
  await screenshot(page, info, 'providers-empty');

  await page.getByRole('button', { name: 'Adicionar provedor' }).click();
  const add = dialog(page, 'Adicionar provedor');
  await choose(page, add.getByRole('combobox', { name: 'Tipo' }), 'Compatível com OpenAI');
  await add.getByRole('textbox', { name: 'Nome' }).fill(label);
  await add.getByTestId('provider-api-key').fill(secret);
  // Required for this kind, and a private address is refused (the SSRF rule), saying so.
  await add.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(add.getByText('Informe a URL base.')).toBeVisible();
  await add.getByRole('textbox', { name: 'URL base' }).fill('http://10.1.2.3:8080/v1');
  await add.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(
    add.getByText(/^10\.1\.2\.3 é um endereço de rede privada\. Use um endereço público/),
  ).toBeVisible();
  await expect(settings.getByTestId('provider-row')).toHaveCount(0);
  await add.getByRole('textbox', { name: 'URL base' }).fill(llmUrl);
  await screenshot(page, info, 'providers-form');
  await add.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(add).toBeHidden();

  const row = settings.getByTestId('provider-row').filter({ hasText: label });
  await expect(row).toBeVisible();
  await expect(row).toContainText('chave configurada');
  // The key never comes back to the browser in clear.
  await expect(page.getByText(secret)).toHaveCount(0);

  await row.getByRole('button', { name: 'Testar conexão' }).click();
  await expect(row.getByText('Conexão funcionando: 2 modelos disponíveis.')).toBeVisible();

  const defaultModel = page.getByRole('combobox', { name: 'Modelo padrão' });
  await choose(page, defaultModel, `${label} · fixture-large`);
  await expect(defaultModel).toHaveValue(`${label} · fixture-large`);
  await screenshot(page, info, 'providers-list');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Modelo padrão' })).toHaveValue(`${label} · fixture-large`);
  // Opened by a link (as from the no-provider notice), the tab shows as chosen, even at the end of
  // a phone's sideways-scrolling tab list.
  await page.goto('/');
  await page.goto('/settings?tab=providers');
  await expect(page.getByRole('tab', { name: 'Modelos de IA' })).toBeInViewport();

  await row.getByRole('button', { name: 'Editar' }).click();
  const edit = dialog(page, `Editar ${label}`);
  await expect(edit.getByText(/Chave configurada .+\. Deixe vazio para mantê-la\./)).toBeVisible();
  await edit.getByRole('textbox', { name: 'Nome' }).fill(`${label} (interno)`);
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  const renamed = settings.getByTestId('provider-row').filter({ hasText: `${label} (interno)` });
  await expect(renamed).toBeVisible();
  // The key was kept: the connection still works.
  await renamed.getByRole('button', { name: 'Testar conexão' }).click();
  await expect(renamed.getByText('Conexão funcionando: 2 modelos disponíveis.')).toBeVisible();

  await renamed.getByRole('button', { name: 'Excluir' }).click();
  await confirm(page, 'Excluir provedor', 'Excluir');
  await expect(settings.getByTestId('provider-row')).toHaveCount(0);
  await expect(settings.getByText('Nenhum provedor configurado para o domínio')).toBeVisible();
});

test('a Viewer has no AI models tab', async ({ page }, info) => {
  await signIn(page, byProject(info.project.name, people.viewer, people.basicViewer));
  await page.goto('/settings?tab=providers');
  await expect(page.getByRole('tab', { name: 'Perfil' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Modelos de IA' })).toHaveCount(0);
});
