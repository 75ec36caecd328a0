import { expect, test } from '@playwright/test';
import { byProject, people } from './fixtures/env.ts';
import { dialog, screenshot } from './pages/admin.ts';
import { signIn } from './pages/login.ts';

// Whole journeys through several dialogs: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('a user with pending terms accepts them once; the record shows in settings', async ({ page }, info) => {
  const person = byProject(info.project.name, people.eulaDesktop, people.eulaMobile);
  await signIn(page, person);
  const terms = dialog(page, 'Termos de uso e política de privacidade');
  await expect(terms).toBeVisible();
  await expect(terms.getByTestId('eula-text')).toContainText('LGPD');
  // Blocking: no close button, Esc does nothing.
  await expect(terms.getByRole('button', { name: /fechar/i })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(terms).toBeVisible();
  await screenshot(page, info, 'eula-dialog');

  await terms.getByRole('button', { name: 'Aceitar' }).click();
  await expect(terms).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('home-greeting')).toBeVisible();
  await expect(terms).toHaveCount(0);

  await page.goto('/settings?tab=terms');
  const record = page.getByTestId('terms-record');
  await expect(record).toContainText('Aceitos');
  await expect(record).toContainText('v1');
  await screenshot(page, info, 'settings-terms');
});
