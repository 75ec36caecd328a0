import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { ChatsPage, isMobile, shot, signInAs } from './pages/chats.ts';
import { chatWithSantitoKnowing, deleteKnowledgeSource } from './pages/knowledge.ts';

test.describe.configure({ timeout: 120_000 });

test('an Admin uploads a document, attaches it to a santito, and the answer cites it', async ({
  page,
}, info) => {
  const tag = `${info.project.name}-${Math.random().toString(36).slice(2, 7)}`;
  const sourceName = `Manual ${tag}`;
  const docTitle = `ferias-${tag}`;
  await signInAs(page, people.admin);

  // The Knowledge tab of /integration: a files source, a document dragged in (here: picked).
  await page.goto('/integration');
  await expect(page.getByRole('tab', { name: 'Conhecimento' })).toBeVisible();
  await page.getByRole('button', { name: 'Nova fonte de arquivos' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova fonte de arquivos' });
  await dialog.getByRole('textbox', { name: 'Nome' }).fill(sourceName);
  await dialog.getByRole('button', { name: 'Criar' }).click();
  await expect(dialog).toHaveCount(0);
  const card = page.getByTestId('knowledge-source').filter({ hasText: sourceName });
  await expect(card).toBeVisible();
  await card.getByLabel('Escolher arquivos').setInputFiles({
    name: `${docTitle}.md`,
    mimeType: 'text/markdown',
    buffer: Buffer.from(`# Férias ${tag}\n\nCada colaborador tem trinta dias de férias remuneradas por ano.`),
  });
  await card.getByRole('button', { name: 'Documentos' }).click();
  const docs = card.getByTestId('knowledge-documents');
  await expect(docs.getByText(docTitle)).toBeVisible({ timeout: 20_000 });
  await expect(docs.getByText('Indexado')).toBeVisible({ timeout: 30_000 });
  await expect(card).toContainText('1 documento ·');
  await shot(page, info, 'knowledge-tab');

  // A santito that consults it.
  await chatWithSantitoKnowing(page, `Guia ${tag}`, `${sourceName} (Arquivos)`);
  const chats = new ChatsPage(page, isMobile(info));
  await chats.waitOnline();
  await chats.send(`Quantos dias de férias ${tag}?`);
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  await chats.waitAnswerDone();
  const citations = chats.lastAnswer.getByTestId('citations');
  await expect(citations).toBeVisible();
  await expect(citations.getByRole('button', { name: docTitle })).toBeVisible();
  await shot(page, info, 'knowledge-citations');

  // Deleting a document asks first: cancelling keeps it, confirming removes it.
  await page.goto('/integration?tab=knowledge');
  await card.getByRole('button', { name: 'Documentos' }).click();
  await docs.getByRole('button', { name: 'Excluir documento' }).click();
  const ask = page.getByRole('dialog', { name: 'Excluir documento' });
  await expect(ask).toContainText(docTitle);
  await ask.getByRole('button', { name: 'Cancelar' }).click();
  await expect(ask).toHaveCount(0);
  await expect(docs.getByText(docTitle)).toBeVisible();
  await docs.getByRole('button', { name: 'Excluir documento' }).click();
  await ask.getByRole('button', { name: 'Excluir' }).click();
  await expect(card.getByText('Nenhum documento ainda.')).toBeVisible();
  await expect(card).toContainText('0 documentos ·');

  await deleteKnowledgeSource(page, sourceName);
});
