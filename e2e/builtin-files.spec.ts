import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import {
  CHART_ANSWER,
  CHART_CODE,
  CHART_QUESTION,
  DRAW_ANSWER,
  DRAW_PROMPT,
  DRAW_QUESTION,
} from './fixtures/tools.ts';
import { attachFile, ChatsPage, isMobile, shot, signInAs } from './pages/chats.ts';

// The built-ins that make files: an image drawn by the domain's image model, and a chart the
// code interpreter makes from a CSV the person attached. Both ask first (the domain's default for
// tools that are not read-only), so each step is allowed here in the UI; the policy is shared with
// specs running at the same time and is left as it is.

test.describe.configure({ timeout: 120_000 });

/** A santito with one of Assistente's tools, made in the editor; the chat page with it opens. */
async function santitoWith(
  page: Page,
  info: TestInfo,
  name: string,
  tool: { name: 'generate_image' | 'code_interpreter'; label: string },
): Promise<ChatsPage> {
  await page.goto('/santitos');
  await page.getByRole('button', { name: 'Novo santito' }).first().click();
  const editor = page.getByRole('dialog', { name: 'Novo santito' });
  await editor.getByRole('textbox', { name: 'Nome' }).fill(name);
  const builtins = editor.getByRole('group', { name: 'Ferramentas do Assistente' });
  const row = builtins.locator(`[data-testid="builtin-tool"][data-tool="${tool.name}"]`);
  const box = row.getByRole('checkbox', { name: tool.label, exact: true });
  await box.check();
  // Set up on this instance: no "not configured" hint under it (web search may have one).
  await expect(row.getByTestId('builtin-hint')).toHaveCount(0);
  await box.scrollIntoViewIfNeeded();
  await shot(page, info, `santito-${tool.name}`);
  await editor.getByRole('button', { name: 'Criar santito' }).click();
  await expect(editor).toHaveCount(0);

  const card = page.getByTestId('santito-card').filter({ hasText: name });
  await card.getByRole('link', { name: `Conversar com ${name}` }).click();
  const chats = new ChatsPage(page, isMobile(info));
  await chats.waitOnline();
  return chats;
}

/** The image has arrived through the token and been decoded: a broken one has no width. */
async function expectDecoded(image: Locator): Promise<void> {
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
      timeout: 15_000,
    })
    .toBe(true);
}

/** Allows the one step of the last answer once it asks; the step then runs to done. */
async function allowStep(page: Page, info: TestInfo, chats: ChatsPage, name: string): Promise<Locator> {
  const step = chats.lastAnswer.getByTestId('tool-step');
  await expect(step).toHaveCount(1);
  await expect(step).toHaveAttribute('data-status', 'awaiting_approval', { timeout: 20_000 });
  await expect(step).toContainText('Aguardando sua aprovação');
  const approval = step.getByRole('group', { name: /^O santito quer usar .+\. Permitir\?$/ });
  await approval.scrollIntoViewIfNeeded();
  await shot(page, info, name);
  await approval.getByRole('button', { name: 'Permitir', exact: true }).click();
  await expect(step).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  return step;
}

test('a santito draws what it is asked, once allowed, and the image stays with the answer', async ({
  page,
}, info) => {
  const suffix = `${info.project.name} ${Math.random().toString(36).slice(2, 7)}`;
  const santitoName = `Ilustrador ${suffix}`;
  await signInAs(page, people.admin);
  const chats = await santitoWith(page, info, santitoName, {
    name: 'generate_image',
    label: 'Geração de imagem',
  });

  await page.getByPlaceholder(`Pergunte ao santito ${santitoName}`).fill(DRAW_QUESTION);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);

  // The person sees what would be drawn before allowing it: the sentence and the whole prompt.
  const pending = chats.lastAnswer.getByTestId('tool-step');
  await expect(pending).toContainText(`Desenhar “${DRAW_PROMPT}”`, { timeout: 20_000 });
  await expect(pending.getByTestId('tool-prompt')).toHaveText(DRAW_PROMPT);
  const step = await allowStep(page, info, chats, 'image-approval');

  const expectDrawn = async () => {
    const answer = chats.lastAnswer;
    await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
    const drawn = answer.getByTestId('tool-step');
    await expect(drawn).toHaveAttribute('data-status', 'done');
    await expect(drawn).toContainText(`Desenhou “${DRAW_PROMPT}”`);
    await expect(drawn.getByRole('img', { name: 'Geração de imagem' })).toBeVisible();
    const image = drawn.getByTestId('tool-image').getByRole('img', { name: /^um-farol.*\.png$/ });
    await expectDecoded(image);
    await expect(drawn.getByRole('button', { name: /^Baixar um-farol.*\.png$/ })).toBeVisible();
    await expect(answer).toContainText(DRAW_ANSWER);
    return image;
  };
  await expect(step).toBeVisible();
  const image = await expectDrawn();
  await image.scrollIntoViewIfNeeded();
  await shot(page, info, 'image-drawn');

  // Kept as the chat's attachment: a reload shows the same step and image.
  await page.reload();
  await expectDrawn();
});

test('a santito runs code on an attached CSV, once allowed, and shows the chart it made', async ({
  page,
}, info) => {
  const suffix = `${info.project.name} ${Math.random().toString(36).slice(2, 7)}`;
  const santitoName = `Analista ${suffix}`;
  await signInAs(page, people.admin);
  const chats = await santitoWith(page, info, santitoName, {
    name: 'code_interpreter',
    label: 'Interpretador de código',
  });

  await attachFile(page, {
    name: 'vendas.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('mes,vendas\njan,120\nfev,90\nmar,150\n'),
  });
  await chats.send(CHART_QUESTION);
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  await expect(chats.messages.first().getByRole('button', { name: /vendas\.csv/ })).toBeVisible();

  // Code is read before it runs: the step opens on it while the person decides.
  const pending = chats.lastAnswer.getByTestId('tool-step');
  await expect(pending.getByTestId('tool-code')).toHaveText(CHART_CODE, { timeout: 20_000 });
  const step = await allowStep(page, info, chats, 'chart-approval');

  await expect(chats.lastAnswer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  await expect(step).toContainText('Executou código Python');
  const chart = step.getByTestId('tool-image').getByRole('img', { name: 'grafico.png' });
  await expectDecoded(chart);
  await expect(chats.lastAnswer).toContainText(CHART_ANSWER);
  await chart.scrollIntoViewIfNeeded();
  await shot(page, info, 'chart-made');

  // Its details: the code it ran and what it printed.
  await step.locator('summary').click();
  await expect(step.getByTestId('tool-code')).toHaveText(CHART_CODE);
  await expect(step.getByTestId('tool-output')).toContainText('vendas.csv: 3 rows');
  await expect(step.getByTestId('tool-output')).toContainText('total: 360');
  await step.getByTestId('tool-output').scrollIntoViewIfNeeded();
  await shot(page, info, 'chart-details');
});
