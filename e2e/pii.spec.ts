import { expect, test } from '@playwright/test';
import { chatPeople } from './fixtures/chat-people.ts';
import { popup } from './pages/admin.ts';
import { ChatsPage, isMobile, shot, signInAs, signInElsewhere } from './pages/chats.ts';

test.describe.configure({ timeout: 120_000 });

// The PII filter (docs/ARCHITECTURE.md#pii-filter), as an organisation meets it: its Admin turns on
// "Substituir" in Settings → Domínio, and a person's CPF and e-mail are replaced in the message they
// sent; then the Admin switches to "Recusar", and the next such send is refused naming what it
// holds, its text kept in the composer.

const CPF = '529.982.247-25';
const EMAIL = 'pedro.pessoal@example.com';

test('an Admin turns on the PII filter: a CPF and an e-mail are replaced, then refused', async ({
  page,
  browser,
}, info) => {
  const mobile = isMobile(info);
  const admin = mobile ? chatPeople.piiAdminMobile : chatPeople.piiAdminDesktop;
  const person = mobile ? chatPeople.piiMobile : chatPeople.piiDesktop;

  const adminPage = await signInElsewhere(browser, admin, mobile);
  const setMode = async (mode: RegExp) => {
    await adminPage.goto('/settings?tab=domain');
    const section = adminPage.getByTestId('pii-setting');
    await section.getByRole('radio', { name: mode }).check();
    await section.getByRole('button', { name: 'Salvar filtro' }).click();
    await expect(popup(adminPage, 'Filtro de dados pessoais salvo')).toBeVisible();
    return section;
  };
  const section = await setMode(/^Substituir/);
  await expect(section.getByRole('checkbox', { name: 'CPF' })).toBeChecked();
  await section.scrollIntoViewIfNeeded();
  await shot(adminPage, info, 'pii-settings-redact');

  await signInAs(page, person);
  const chats = new ChatsPage(page, mobile);
  await chats.openNew();
  await chats.startChat(`Meu CPF é ${CPF} e meu e-mail é ${EMAIL}`);
  await chats.waitAnswerDone();
  const sent = page.locator('[data-testid="message"][data-role="user"]').last();
  await expect(sent).toContainText('Meu CPF é [CPF] e meu e-mail é [EMAIL]');
  await expect(sent).not.toContainText(CPF);
  await shot(page, info, 'pii-redacted');

  await setMode(/^Recusar/);
  await shot(adminPage, info, 'pii-settings-block');
  await adminPage.context().close();

  const refused = `Outro CPF: ${CPF}, e-mail ${EMAIL}`;
  await chats.send(refused);
  const notice = page.getByTestId('chat-error');
  await expect(notice).toHaveAttribute('data-code', 'PII_BLOCKED');
  await expect(notice).toContainText(
    'Esta mensagem contém e-mail e CPF, que a organização não permite enviar.',
  );
  await expect(chats.composer).toHaveValue(refused);
  // Nothing of it was stored: the chat still holds one question.
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveCount(1);
  await shot(page, info, 'pii-blocked');
});
