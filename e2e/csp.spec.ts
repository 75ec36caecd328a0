import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { signIn } from './pages/login.ts';

/** Nothing the app ships trips its own Content-Security-Policy (no eval, no inline script). */
test('no page logs a Content-Security-Policy violation', async ({ page }) => {
  // Ten pages, each loaded cold and left to settle.
  test.setTimeout(90_000);
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on('console', (m) => {
    if (/Content.Security.Policy|CSP violation/i.test(m.text())) violations.push(m.text());
  });
  await signIn(page, people.superAdmin);
  for (const path of [
    '/chats',
    '/settings',
    '/users',
    '/santitos',
    '/domains',
    '/departments',
    '/integration?tab=embeds',
    '/integration?tab=knowledge',
    '/integration?tab=sso',
  ]) {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    // Each page has parsed its data with the shared schemas once its lists have loaded.
    await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
  }
  // The embedded chat's page is a build of its own (embedded.html): an unknown embed shows its 404.
  await page.goto('/embedded/va-nope/chats');
  await expect(page.locator('main h1')).toBeVisible();
  expect(violations).toEqual([]);
});
