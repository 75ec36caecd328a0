import { expect, test } from '@playwright/test';
import { chatPeople } from './fixtures/chat-people.ts';
import { people } from './fixtures/env.ts';
import { ChatsPage, isMobile, shot, signInAs } from './pages/chats.ts';

test.describe.configure({ timeout: 90_000 });

test('an Editor builds a santito and everyone in the domain chats with it', async ({
  browser,
  page,
}, info) => {
  const name = `Coruja ${info.project.name} ${Math.random().toString(36).slice(2, 7)}`;
  const starter = `Resuma o relatório ${name}`;
  await signInAs(page, isMobile(info) ? chatPeople.chatMobile : chatPeople.chatDesktop);
  await page.goto('/santitos');
  await page.getByRole('button', { name: 'Novo santito' }).first().click();
  const form = page.getByRole('dialog', { name: 'Novo santito' });
  await form.getByRole('textbox', { name: 'Nome' }).fill(name);
  await form.getByRole('textbox', { name: 'Emoji' }).fill('🦉');
  await form.getByRole('textbox', { name: 'Descrição' }).fill('Responde dúvidas sobre relatórios.');
  await form
    .getByRole('textbox', { name: 'Instruções' })
    .fill('Responda sempre em português, de forma breve.');
  await form.getByRole('button', { name: 'Adicionar sugestão' }).click();
  await form.getByRole('textbox', { name: 'Sugestão 1' }).fill(starter);
  await shot(page, info, 'santito-form');
  await form.getByRole('button', { name: 'Criar santito' }).click();
  await expect(form).toHaveCount(0);
  const card = page.getByTestId('santito-card').filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: `Ações de ${name}` })).toBeVisible();
  await shot(page, info, 'santitos-gallery');

  // Start a chat with it from its starter.
  await card.getByRole('link', { name: `Conversar com ${name}` }).click();
  await expect(page).toHaveURL(/\/chats\?agent=/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  // Grammatical whatever the santito's name ("Pergunte a Tradutor Jurídico" was not).
  await expect(page.getByPlaceholder(`Pergunte ao santito ${name}`)).toBeVisible();
  const chats = new ChatsPage(page, isMobile(info));
  await chats.waitOnline();
  await page.getByRole('button', { name: starter }).click();
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  await expect(chats.messages.first()).toContainText(starter);
  await chats.waitAnswerDone();
  await expect(page.getByTestId('chat-view').getByText(name).first()).toBeVisible();
  await shot(page, info, 'santito-chat');

  // A Viewer of the same domain sees it (without edit rights) on /santitos and on the home page.
  const { baseURL, viewport } = info.project.use;
  const viewerContext = await browser.newContext({ baseURL, viewport, locale: 'pt-BR' });
  const viewer = await viewerContext.newPage();
  await signInAs(viewer, people.viewer);
  await expect(viewer.getByTestId('home-santitos')).toBeVisible();
  await viewer.goto('/santitos');
  await viewer.getByRole('searchbox', { name: 'Buscar santitos' }).fill(name);
  const seen = viewer.getByTestId('santito-card').filter({ hasText: name });
  await expect(seen).toBeVisible();
  await expect(seen.getByRole('button', { name: `Ações de ${name}` })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Novo santito' })).toHaveCount(0);
  await viewerContext.close();

  // The author edits and deletes it.
  await page.goto('/santitos');
  const own = page.getByTestId('santito-card').filter({ hasText: name });
  await own.getByRole('button', { name: `Ações de ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: `Editar ${name}` });
  await edit.getByRole('textbox', { name: 'Descrição' }).fill('Agora também resume atas.');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(own).toContainText('Agora também resume atas.');
  await own.getByRole('button', { name: `Ações de ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Excluir' }).click();
  await page
    .getByRole('dialog', { name: 'Excluir santito' })
    .getByRole('button', { name: 'Excluir' })
    .click();
  await expect(page.getByTestId('santito-card').filter({ hasText: name })).toHaveCount(0);
});

test('santitos are not there for a domain without premium', async ({ page }) => {
  await signInAs(page, people.basicViewer);
  await expect(page.getByTestId('home-santitos')).toHaveCount(0);
  await page.goto('/santitos');
  await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible();
});
