import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { TOOL_ANSWER, TOOL_ECHO_TEXT } from './fixtures/tools.ts';
import { ChatsPage, isMobile, shot, signInAs } from './pages/chats.ts';

test.describe.configure({ timeout: 120_000 });

test('an Admin adds an MCP server, gives a santito its tools, allows a call and sees the step', async ({
  page,
}, info) => {
  const mcpUrl = process.env.E2E_MCP_URL;
  if (!mcpUrl) throw new Error('E2E_MCP_URL is not set: the global setup starts the MCP stand-in');
  const suffix = `${info.project.name} ${Math.random().toString(36).slice(2, 7)}`;
  const serverName = `Eco ${suffix}`;
  const santitoName = `Ferramenteiro ${suffix}`;
  await signInAs(page, people.admin);

  // Integration → MCP servers: add the stand-in; its tools are discovered at once.
  await page.goto('/integration?tab=mcp');
  await page.getByRole('tab', { name: 'Servidores MCP' }).click();
  await page.getByRole('button', { name: 'Adicionar servidor MCP' }).first().click();
  const form = page.getByRole('dialog', { name: 'Adicionar servidor MCP' });
  await form.getByRole('textbox', { name: 'Nome' }).fill(serverName);
  await form.getByRole('textbox', { name: 'Endereço' }).fill(mcpUrl);
  await form.getByRole('button', { name: 'Adicionar servidor' }).click();
  await expect(form).toHaveCount(0);
  const card = page.getByTestId('mcp-servers').getByTestId('mcp-server-row').filter({ hasText: serverName });
  await expect(card.getByTestId('mcp-server-tools')).toContainText('echo');
  await shot(page, info, 'mcp-server-added');

  // A santito with every tool of that server.
  await page.goto('/santitos');
  await page.getByRole('button', { name: 'Novo santito' }).first().click();
  const editor = page.getByRole('dialog', { name: 'Novo santito' });
  await editor.getByRole('textbox', { name: 'Nome' }).fill(santitoName);
  await editor.getByRole('checkbox', { name: `Todas as ferramentas de ${serverName}` }).check();
  await shot(page, info, 'santito-tools');
  await editor.getByRole('button', { name: 'Criar santito' }).click();
  await expect(editor).toHaveCount(0);

  // Asking it: the call waits for approval (the domain's default for MCP tools), then runs.
  const santito = page.getByTestId('santito-card').filter({ hasText: santitoName });
  await santito.getByRole('link', { name: `Conversar com ${santitoName}` }).click();
  const chats = new ChatsPage(page, isMobile(info));
  await chats.waitOnline();
  await page.getByPlaceholder(`Pergunte ao santito ${santitoName}`).fill('Repita o que a ferramenta disser');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  const step = page.getByTestId('tool-step').first();
  await expect(step).toHaveAttribute('data-status', 'awaiting_approval');
  await expect(step).toContainText('Aguardando sua aprovação');
  await shot(page, info, 'tool-approval');
  await step.getByRole('button', { name: 'Permitir', exact: true }).click();
  await expect(step).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('chat-view')).toContainText(TOOL_ANSWER);
  await step.locator('summary').click();
  await expect(step.getByTestId('tool-output')).toContainText(TOOL_ECHO_TEXT);
  await shot(page, info, 'tool-step-done');

  // Stored with the answer: a reload shows the same step.
  await page.reload();
  const again = page.getByTestId('tool-step').first();
  await expect(again).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('chat-view')).toContainText(TOOL_ANSWER);
});
