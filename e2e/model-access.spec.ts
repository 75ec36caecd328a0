import { expect, type Page, test } from '@playwright/test';
import { chatPeople } from './fixtures/chat-people.ts';
import { ChatsPage, isMobile, signInAs, signInElsewhere, tag } from './pages/chats.ts';

test.describe.configure({ timeout: 180_000 });

const LARGE = 'openai:fixture-large';

/** The models the chat's parameters offer, read from the opened model picker. */
async function offeredModels(page: Page, mobile: boolean): Promise<string[]> {
  const chats = new ChatsPage(page, mobile);
  await chats.openNew();
  await chats.startChat(`Quais modelos? ${tag()}`);
  await chats.waitAnswerDone();
  await page.getByTestId('toggle-params').click();
  const panel = page.getByTestId('params-panel');
  await panel.getByRole('combobox', { name: 'Modelo' }).click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  return options.allInnerTexts();
}

test('an Admin keeps a model for Admins: a Viewer of the domain no longer finds it in the chat’s model picker', async ({
  page,
  browser,
}, info) => {
  const mobile = isMobile(info);
  const admin = mobile ? chatPeople.accessAdminMobile : chatPeople.accessAdminDesktop;
  const person = mobile ? chatPeople.accessViewerMobile : chatPeople.accessViewerDesktop;

  const viewer = await signInElsewhere(browser, person, mobile);
  try {
    expect(await offeredModels(viewer, mobile)).toContain('fixture-large');

    await signInAs(page, admin);
    await page.goto('/settings?tab=providers');
    const editor = page.getByTestId('model-access');
    await expect(editor.getByTestId('model-access-empty')).toBeVisible();
    await editor.getByTestId('model-access-add').click();
    await editor.getByTestId('model-access-model').fill(LARGE);
    await expect(editor.getByTestId('model-access-unsaved')).toBeVisible();
    await editor.getByTestId('model-access-save').click();
    await expect(page.getByText('Acesso aos modelos salvo')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('model-access').getByTestId('model-access-model')).toHaveValue(LARGE);

    const offered = await offeredModels(viewer, mobile);
    expect(offered).toContain('fixture-small');
    expect(offered).not.toContain('fixture-large');
  } finally {
    await viewer.context().close();
    // The rule goes: the domain is open again.
    const editor = page.getByTestId('model-access');
    if (await editor.getByTestId('model-access-rule').count()) {
      await editor.getByRole('button', { name: `Remover a regra de ${LARGE}` }).click();
      await editor.getByTestId('model-access-save').click();
      await expect(editor.getByTestId('model-access-empty')).toBeVisible();
    }
  }
});
