import { expect, type Locator, type Page } from '@playwright/test';

/** A santito that consults the knowledge source picked as `option` (`Name (Kind)`), opened in a chat. */
export async function chatWithSantitoKnowing(page: Page, santito: string, option: string): Promise<void> {
  await page.goto('/santitos');
  await page.getByRole('button', { name: 'Novo santito' }).first().click();
  const form = page.getByRole('dialog', { name: 'Novo santito' });
  await form.getByRole('textbox', { name: 'Nome' }).fill(santito);
  // Picked (a pill in the field), not just clicked: on a phone the field sits at the bottom of the
  // screen and its list may still be moving into place when the option is tapped; then again.
  const picked = form.getByText(option, { exact: true });
  await expect(async () => {
    if (await picked.isVisible()) return;
    await form.getByRole('combobox', { name: 'Conhecimento' }).click();
    await page.getByRole('option', { name: option }).click({ timeout: 5_000 });
    await expect(picked).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await form.getByRole('textbox', { name: 'Nome' }).click();
  await form.getByRole('button', { name: 'Criar santito' }).click();
  await expect(form).toHaveCount(0);
  await page
    .getByTestId('santito-card')
    .filter({ hasText: santito })
    .getByRole('link', { name: `Conversar com ${santito}` })
    .click();
}

/** Deletes a knowledge source from /integration, after confirming: what a run made in the shared domain. */
export async function deleteKnowledgeSource(page: Page, name: string): Promise<void> {
  await page.goto('/integration?tab=knowledge');
  const card = page.getByTestId('knowledge-source').filter({ hasText: name });
  await card.getByRole('button', { name: 'Excluir' }).click();
  await page
    .getByRole('dialog', { name: 'Excluir fonte de conhecimento' })
    .getByRole('button', { name: 'Excluir' })
    .click();
  await expect(card).toHaveCount(0);
}

/**
 * From now on, every "Sincronizando: x de y páginas" the card of `sourceName` shows, however
 * briefly (a MutationObserver sees each render, where polling would miss a short one). Answers a
 * reader of what was seen so far, as [done, total] pairs.
 */
export async function recordSyncProgress(
  page: Page,
  sourceName: string,
): Promise<() => Promise<Array<[number, number]>>> {
  const key = `syncProgress${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ key, sourceName }) => {
      const seen: string[] = [];
      (window as unknown as Record<string, string[]>)[key] = seen;
      const look = () => {
        for (const card of Array.from(document.querySelectorAll('[data-testid="knowledge-source"]'))) {
          const text = card.textContent ?? '';
          if (!text.includes(sourceName)) continue;
          const line = /Sincronizando: \d+ de \d+ páginas/.exec(text)?.[0];
          if (line && seen.at(-1) !== line) seen.push(line);
        }
      };
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
      look();
    },
    { key, sourceName },
  );
  return async () => {
    const seen = await page.evaluate((k) => (window as unknown as Record<string, string[]>)[k] ?? [], key);
    return seen.map((line) => {
      const [, done, total] = /(\d+) de (\d+)/.exec(line) ?? [];
      return [Number(done), Number(total)];
    });
  };
}

/** The knowledge tab's "connect Confluence" dialog, its name, site and account filled in (not its token). */
export async function openConfluenceDialog(
  page: Page,
  sourceName: string,
  site: { url: string; email: string },
): Promise<Locator> {
  await page.goto('/integration?tab=knowledge');
  await page.getByRole('button', { name: 'Conectar Confluence' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Conectar um site do Confluence Cloud' });
  await dialog.getByRole('textbox', { name: 'Nome' }).fill(sourceName);
  await dialog.getByRole('textbox', { name: 'Endereço do site' }).fill(site.url);
  await dialog.getByRole('textbox', { name: 'E-mail da conta' }).fill(site.email);
  return dialog;
}
