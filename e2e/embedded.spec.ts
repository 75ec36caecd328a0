import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { signIn } from './pages/login.ts';

test('opening an embedded page leaves the account session alone', async ({ page, context }) => {
  await signIn(page, people.viewer);
  const revokes: string[] = [];
  context.on('request', (r) => {
    if (r.url().includes('accounts:revokeToken')) revokes.push(r.url());
  });
  const embedded = await context.newPage();
  // No such embed: the server answers 404 (with the app shell, which starts on the embedded session).
  const res = await embedded.goto('/embedded/va-1/chats');
  expect(res?.status()).toBe(404);
  await expect(embedded.locator('main')).toBeVisible();
  // Whatever the embedded page did, give it time to do it before looking.
  await embedded.waitForLoadState('networkidle');
  await embedded.close();

  expect(revokes).toEqual([]);
  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Olá, Vera')).toBeVisible();
});
