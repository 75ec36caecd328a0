import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { shot, signInAs } from './pages/chats.ts';

test.describe.configure({ timeout: 120_000 });

test('an Admin adds an OAuth MCP server and connects their account in a popup', async ({ page }, info) => {
  const url = process.env.E2E_MCP_OAUTH_URL;
  if (!url) throw new Error('E2E_MCP_OAUTH_URL is not set: the global setup starts the OAuth stand-in');
  const name = `Protegido ${info.project.name} ${Math.random().toString(36).slice(2, 7)}`;
  await signInAs(page, people.admin);
  await page.goto('/integration?tab=mcp');
  await page.getByRole('tab', { name: 'Servidores MCP' }).click();
  await page.getByRole('button', { name: 'Adicionar servidor MCP' }).first().click();
  const form = page.getByRole('dialog', { name: 'Adicionar servidor MCP' });
  await form.getByRole('textbox', { name: 'Nome' }).fill(name);
  await form.getByRole('textbox', { name: 'Endereço' }).fill(url);
  await form.getByText('OAuth', { exact: true }).click();
  await form.getByRole('button', { name: 'Adicionar servidor' }).click();
  await expect(form).toHaveCount(0);

  // Nobody connected yet: its tools are listed once someone does.
  const row = page.getByTestId('mcp-servers').getByTestId('mcp-server-row').filter({ hasText: name });
  await expect(row).toContainText('Não conectado');
  const popupOpened = page.waitForEvent('popup');
  await row.getByRole('button', { name: 'Conectar' }).click();
  const popup = await popupOpened;
  // The authorization server signs the person in at once and sends the popup back, which closes.
  await popup.waitForEvent('close', { timeout: 30_000 });
  await expect(row).toContainText('Conectado');
  await expect(row.getByTestId('mcp-server-tools')).toContainText('echo');
  await shot(page, info, 'mcp-oauth-connected');
});
