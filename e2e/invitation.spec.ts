import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { resetLink, waitForMail } from './fixtures/mail.ts';
import { dialog, popup, runTag, screenshot } from './pages/admin.ts';
import { signIn } from './pages/login.ts';

// Whole journeys through several dialogs: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('an invited user gets the mail, chooses a password, is signed in and accepts the terms', async ({
  page,
  browser,
}, info) => {
  const tag = runTag(info);
  const email = `convidada-${tag}@acme.test`;
  const password = `Convite-${tag}-Senha9`;

  // The Admin invites.
  await signIn(page, people.admin);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Convidar usuário' }).first().click();
  const invite = dialog(page, 'Convidar usuário');
  await invite.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await invite.getByRole('textbox', { name: 'Nome', exact: true }).fill(`Iara ${tag}`);
  await invite.getByRole('button', { name: 'Enviar convite' }).click();
  await expect(popup(page, 'Convite enviado')).toBeVisible();
  // Until they set a password, the list says the invitation is pending (not "Ativo").
  await page.getByRole('searchbox').first().fill(email);
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await expect(row.getByTestId('invite-pending')).toHaveText('Convite pendente');

  // The mail reaches the SMTP sink with a set-password link.
  const mail = await waitForMail(email);
  const link = new URL(resetLink(mail));

  // The invitee, in a browser of their own, is welcomed (no talk of a reset) and sets the password…
  const context = await browser.newContext({
    viewport: info.project.use.viewport ?? null,
    isMobile: info.project.use.isMobile ?? false,
    hasTouch: info.project.use.hasTouch ?? false,
    locale: 'pt-BR',
  });
  const invitee = await context.newPage();
  await invitee.goto(link.pathname + link.search);
  await expect(invitee.getByRole('heading', { name: 'Boas-vindas ao Assistente' })).toBeVisible();
  await invitee.getByLabel('Senha', { exact: true }).fill(password);
  await invitee.getByLabel('Confirme a senha').fill(password);
  await invitee.getByRole('button', { name: 'Criar senha e entrar' }).click();

  // …is signed in straight away, and must accept the terms before using the app.
  const terms = dialog(invitee, 'Termos de uso e política de privacidade');
  await expect(terms).toBeVisible();
  await screenshot(invitee, info, 'invitation-eula');
  await terms.getByRole('button', { name: 'Aceitar' }).click();
  await expect(terms).toBeHidden();
  await expect(invitee.getByTestId('home-greeting')).toContainText('Iara');
  await context.close();

  // Signed up: no longer pending.
  await page.reload();
  await page.getByRole('searchbox').first().fill(email);
  await expect(page.getByTestId('user-row').filter({ hasText: email })).toBeVisible();
  await expect(page.getByTestId('invite-pending')).toHaveCount(0);
});
