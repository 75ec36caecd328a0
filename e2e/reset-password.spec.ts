import { expect, test } from '@playwright/test';
import { PASSWORD, people } from './fixtures/env.ts';
import { mailCount, resetLink, waitForMail } from './fixtures/mail.ts';
import { LoginPage } from './pages/login.ts';

test('a user asks for a reset link, receives it by mail and sets a new password', async ({ page }, info) => {
  const person = info.project.name === 'mobile' ? people.resetMobile : people.resetDesktop;
  const before = mailCount(person.email);

  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(/\/auth\/reset-password/);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByRole('button', { name: /enviar/i }).click();
  await expect(page.getByRole('status').or(page.getByRole('alert')).first()).toBeVisible();

  const mail = await waitForMail(person.email, before);
  const link = new URL(resetLink(mail));
  await page.goto(link.pathname + link.search);

  const newPassword = `New-${PASSWORD}-${info.project.name}`;
  // The policy is shown and enforced before the server is asked.
  await page.getByLabel('Nova senha', { exact: true }).fill('abc');
  await page.getByLabel('Confirme a nova senha').fill('abc');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page).toHaveURL(/oobCode=/);
  await page.getByLabel('Nova senha', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirme a nova senha').fill(newPassword);
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page.getByText('Senha alterada')).toBeVisible();

  // The old password no longer works; the new one does.
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(person, PASSWORD);
  await expect(page.getByRole('alert')).toBeVisible();
  await login.signIn(person, newPassword);
  await expect(page).toHaveURL(/\/$/);

  // The link is single-use.
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Link inválido')).toBeVisible();
});

test('asking for a reset of an unknown email looks the same and sends nothing', async ({ page }) => {
  await page.goto('/auth/reset-password');
  await page.getByLabel('E-mail').fill('nobody@nowhere.test');
  await page.getByRole('button', { name: /enviar/i }).click();
  await expect(page.getByRole('status').or(page.getByRole('alert')).first()).toBeVisible();
  expect(mailCount('nobody@nowhere.test')).toBe(0);
});
