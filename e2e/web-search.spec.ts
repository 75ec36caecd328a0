import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { RESEARCH_ANSWER, RESEARCH_QUESTION } from './fixtures/tools.ts';
import { ChatsPage, isMobile, shot, signInAs } from './pages/chats.ts';

test.describe.configure({ timeout: 120_000 });

test('an Admin sets up web search, a santito researches with it and the answer cites the pages it read', async ({
  page,
}, info) => {
  const searxngUrl = process.env.E2E_SEARXNG_URL;
  if (!searxngUrl) throw new Error('E2E_SEARXNG_URL is not set: the global setup starts the web stand-in');
  const suffix = `${info.project.name} ${Math.random().toString(36).slice(2, 7)}`;
  const santitoName = `Pesquisador ${suffix}`;
  await signInAs(page, people.admin);

  // Integration → MCP servers → tool policy: only the web search part changes; the rules stay as
  // they are (other specs rely on MCP tools asking first). Both projects save the same settings.
  await page.goto('/integration?tab=mcp');
  await page.getByRole('tab', { name: 'Servidores MCP' }).click();
  const webSearch = page.getByTestId('web-search');
  await webSearch.getByText('SearXNG', { exact: true }).click();
  await webSearch.getByRole('textbox', { name: 'Endereço do SearXNG' }).fill(searxngUrl);
  const policy = page.getByTestId('tool-policy');
  await policy.getByRole('button', { name: 'Salvar política' }).click();
  await expect(policy.getByRole('status')).toHaveText('Política salva.');
  await webSearch.scrollIntoViewIfNeeded();
  await shot(page, info, 'web-search-settings');

  await page.reload();
  await expect(page.getByTestId('web-search').getByRole('radio', { name: 'SearXNG' })).toBeChecked();
  await expect(
    page.getByTestId('web-search').getByRole('textbox', { name: 'Endereço do SearXNG' }),
  ).toHaveValue(searxngUrl);

  // A santito that searches and reads pages; read-only built-ins run without asking.
  await page.goto('/santitos');
  await page.getByRole('button', { name: 'Novo santito' }).first().click();
  const editor = page.getByRole('dialog', { name: 'Novo santito' });
  await editor.getByRole('textbox', { name: 'Nome' }).fill(santitoName);
  const builtins = editor.getByRole('group', { name: 'Ferramentas do Assistente' });
  await builtins.getByRole('checkbox', { name: 'Pesquisa na web', exact: true }).check();
  await builtins.getByRole('checkbox', { name: 'Leitura de página', exact: true }).check();
  await expect(builtins.getByTestId('builtin-hint')).toHaveCount(0);
  await builtins.scrollIntoViewIfNeeded();
  await shot(page, info, 'santito-builtin-tools');
  await editor.getByRole('button', { name: 'Criar santito' }).click();
  await expect(editor).toHaveCount(0);

  // Asking it: one search, then the first two results read, then the answer citing both.
  const santito = page.getByTestId('santito-card').filter({ hasText: santitoName });
  await santito.getByRole('link', { name: `Conversar com ${santitoName}` }).click();
  const chats = new ChatsPage(page, isMobile(info));
  await chats.waitOnline();
  await page.getByPlaceholder(`Pergunte ao santito ${santitoName}`).fill(RESEARCH_QUESTION);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  await chats.waitAnswerDone();

  const expectResearched = async () => {
    const answer = chats.lastAnswer;
    await expect(answer).toHaveAttribute('data-status', 'complete');
    const steps = answer.getByTestId('tool-step');
    await expect(steps).toHaveCount(3);
    for (const step of await steps.all()) await expect(step).toHaveAttribute('data-status', 'done');
    await expect(steps.nth(0)).toContainText('Pesquisou na web por “bomba de calor frio”');
    await expect(steps.nth(1)).toContainText('Leu 127.0.0.1/pages/heat-pumps');
    await expect(steps.nth(2)).toContainText('Leu 127.0.0.1/pages/insulation');
    await expect(answer.getByText('Aguardando sua aprovação')).toHaveCount(0);
    // The markers are links now, their text unchanged.
    await expect(answer).toContainText(RESEARCH_ANSWER);

    const citations = answer.getByTestId('citations');
    const first = citations.getByRole('link', { name: 'Heat pumps in cold climates' });
    const second = citations.getByRole('link', { name: 'Insulation first' });
    await expect(first).toHaveAttribute('href', /\/pages\/heat-pumps$/);
    await expect(first).toHaveAttribute('target', '_blank');
    await expect(second).toHaveAttribute('href', /\/pages\/insulation$/);
    await expect(second).toHaveAttribute('target', '_blank');

    const marker = answer.getByRole('link', { name: '[1]', exact: true });
    await expect(marker).toHaveAttribute('href', (await first.getAttribute('href')) ?? '');
    await expect(marker).toHaveAttribute('target', '_blank');
  };
  await expectResearched();
  await chats.lastAnswer.getByTestId('citations').scrollIntoViewIfNeeded();
  await shot(page, info, 'research-answered');

  // Stored with the answer: a reload shows the same steps and sources.
  await page.reload();
  await expectResearched();
});
