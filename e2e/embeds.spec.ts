import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { signIn } from './pages/login.ts';

test('an Admin creates an embed, copies its snippet and secret, pauses it and deletes it', async ({
  page,
}, testInfo) => {
  // A long journey (two languages, several dialogs) on a machine shared with other runs.
  test.setTimeout(120_000);
  const name = `Loja ${testInfo.project.name}`;
  const shot = (step: string) =>
    page.screenshot({ path: testInfo.outputPath(`embeds-${step}.png`), fullPage: true });
  await signIn(page, people.admin);
  await page.goto('/integration');
  await page.getByRole('tab', { name: 'Chat no site' }).click();
  await expect(page).toHaveURL(/tab=embeds/);

  await page.getByRole('button', { name: 'Novo chat para o site' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo chat para o site' });
  // The preview shows the launcher and the open chat as the Admin types, before anything is saved.
  const preview = dialog.getByTestId('embed-preview');
  // The launcher's own button, in its shadow root as on a visitor's site.
  const launcher = preview.locator('button.b');
  await expect(launcher).toHaveText('Nome do chat');
  await dialog.getByLabel('Nome').fill(name);
  await expect(launcher).toHaveText(name);
  await expect(preview.getByTestId('embedded-name')).toHaveText(name);
  await dialog.getByLabel('Cor').fill('#2e7d32');
  await expect(launcher).toHaveCSS('background-color', 'rgb(46, 125, 50)');
  await expect(preview.locator('header').first()).toHaveCSS('background-color', 'rgb(46, 125, 50)');
  await dialog.getByLabel('Mensagem de boas-vindas').fill('Olá! Como posso ajudar?');
  await expect(preview.getByText('Olá! Como posso ajudar?')).toBeVisible();
  await dialog.getByLabel('Sites permitidos').fill('https://shop.acme.test/path');
  await dialog.getByRole('button', { name: 'Criar' }).click();
  // Not an exact origin: refused in the form, nothing created.
  await expect(
    dialog
      .getByText(/./)
      .filter({ hasText: /origem|site|endereço|exact/i })
      .first(),
  ).toBeVisible();
  await dialog.getByLabel('Sites permitidos').fill('https://shop.acme.test');
  await shot('form');
  await dialog.getByRole('button', { name: 'Criar' }).click();

  const secret = page.getByRole('dialog', { name: 'Segredo do chat do site' });
  await expect(secret.getByTestId('embed-secret')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(secret.getByTestId('embed-snippet')).toContainText('/embed.js" data-virtual-account="va');
  await shot('secret');
  await secret.getByRole('button', { name: 'Pronto' }).click();

  const row = page.getByTestId('embed-row').filter({ hasText: name });
  await expect(row.getByTestId('embed-stats')).toHaveText(
    'Últimos 30 dias: 0 visitantes · 0 conversas · 0 mensagens',
  );
  await expect(row.getByText('Ativo', { exact: true })).toBeVisible();
  await shot('list');

  await row.getByRole('button', { name: 'Pausar' }).click();
  await expect(row.getByText('Pausado', { exact: true })).toBeVisible();

  await page.goto('/en/integration?tab=embeds');
  await expect(page.getByTestId('embed-row').filter({ hasText: name }).getByText('Paused')).toBeVisible();
  await shot('list-en');

  const enRow = page.getByTestId('embed-row').filter({ hasText: name });
  await enRow.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete embed' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('embed-row').filter({ hasText: name })).toHaveCount(0);
});
