import { expect, test } from '@playwright/test';
import { CONFLUENCE_PAGES, confluenceSite, LARGE_SPACE_PAGES } from './fixtures/confluence.ts';
import { people } from './fixtures/env.ts';
import { ChatsPage, isMobile, shot, signInAs } from './pages/chats.ts';
import {
  chatWithSantitoKnowing,
  deleteKnowledgeSource,
  openConfluenceDialog,
  recordSyncProgress,
} from './pages/knowledge.ts';

test.describe.configure({ timeout: 150_000 });

test('an Admin connects a Confluence space, it syncs, and a santito answers citing its pages', async ({
  page,
}, info) => {
  const site = confluenceSite();
  const tag = `${info.project.name}-${Math.random().toString(36).slice(2, 7)}`;
  const sourceName = `Wiki RH ${tag}`;
  await signInAs(page, people.admin);
  const dialog = await openConfluenceDialog(page, sourceName, site);

  // A wrong token: the test says so, and nothing is created.
  await dialog.getByLabel('Token de API').fill('not-the-token');
  const spaces = dialog.getByRole('combobox', { name: 'Espaços' });
  await spaces.fill('RH');
  await spaces.press('Enter');
  await dialog.getByRole('button', { name: 'Testar conexão' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();

  // The right one: the test counts the space's pages.
  await dialog.getByLabel('Token de API').fill(site.token);
  await dialog.getByRole('button', { name: 'Testar conexão' }).click();
  await expect(dialog.getByRole('status')).toContainText(
    `RH — Recursos Humanos: ${CONFLUENCE_PAGES.length} páginas`,
  );
  await shot(page, info, 'confluence-test');
  const progress = await recordSyncProgress(page, sourceName);
  await dialog.getByRole('button', { name: 'Conectar' }).click();
  await expect(dialog).toHaveCount(0);

  // The first sync runs by itself, page by page; the card ends with every page indexed.
  const card = page.getByTestId('knowledge-source').filter({ hasText: sourceName });
  await card.getByRole('button', { name: 'Documentos' }).click();
  for (const [, title] of CONFLUENCE_PAGES) await expect(card.getByText(title)).toBeVisible();
  await expect(card.getByText('Indexado', { exact: true })).toHaveCount(CONFLUENCE_PAGES.length, {
    timeout: 60_000,
  });
  await expect(card.getByText(/^Sincronizando/)).toHaveCount(0, { timeout: 30_000 });
  await expect(card).toContainText(`${CONFLUENCE_PAGES.length} documentos`);
  // Whatever progress the card showed counted the space's 3 pages, never more done. (Three pages
  // sync in a blink, and a busy machine may show the card only once it is over: the large space's
  // test below is the one that sees a sync midway.)
  for (const [done, total] of await progress()) {
    expect(total).toBe(CONFLUENCE_PAGES.length);
    expect(done).toBeLessThanOrEqual(total);
  }
  await shot(page, info, 'confluence-synced');

  // A santito consults it; its answer cites the Confluence page, which opens on the site.
  await chatWithSantitoKnowing(page, `RH ${tag}`, `${sourceName} (Confluence)`);
  const chats = new ChatsPage(page, isMobile(info));
  await chats.waitOnline();
  await chats.send('Quantos dias por semana posso fazer home office?');
  await chats.waitAnswerDone();
  const cited = chats.lastAnswer
    .getByTestId('citations')
    .getByRole('link', { name: 'Política de home office' });
  await expect(cited).toBeVisible();
  expect(await cited.getAttribute('href')).toMatch(new RegExp(`^${site.url}/wiki/`));
  await shot(page, info, 'confluence-citation');

  await deleteKnowledgeSource(page, sourceName);
});

test('a large space’s sync shows its real page count from the start, not the pages listed so far', async ({
  page,
}, info) => {
  const site = confluenceSite();
  const sourceName = `Políticas ${info.project.name}-${Math.random().toString(36).slice(2, 7)}`;
  await signInAs(page, people.admin);
  const dialog = await openConfluenceDialog(page, sourceName, site);
  await dialog.getByLabel('Token de API').fill(site.token);
  const spaces = dialog.getByRole('combobox', { name: 'Espaços' });
  await spaces.fill('POL');
  await spaces.press('Enter');
  const progress = await recordSyncProgress(page, sourceName);
  await dialog.getByRole('button', { name: 'Conectar' }).click();
  await expect(dialog).toHaveCount(0);

  // Midway (Confluence lists the space five pages at a time): some done, out of all 40.
  const card = page.getByTestId('knowledge-source').filter({ hasText: sourceName });
  await expect(card.getByText(/^Sincronizando: ([1-9]|[1-3]\d) de 40 páginas$/)).toBeVisible({
    timeout: 30_000,
  });
  await shot(page, info, 'confluence-progress');
  await expect(card.getByText(/^Sincronizando/)).toHaveCount(0, { timeout: 60_000 });
  await expect(card).toContainText(`${LARGE_SPACE_PAGES} documentos`);

  // Every step the card showed counted the whole space, and went only forward.
  const seen = await progress();
  expect(seen.length).toBeGreaterThan(1);
  for (const [i, [done, total]] of seen.entries()) {
    expect(total).toBe(LARGE_SPACE_PAGES);
    expect(done).toBeLessThanOrEqual(total);
    expect(done).toBeGreaterThanOrEqual(seen[i - 1]?.[0] ?? 0);
  }

  await deleteKnowledgeSource(page, sourceName);
});
