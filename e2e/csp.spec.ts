import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { signIn } from './pages/login.ts';

/** Nothing the app ships trips its own Content-Security-Policy (no eval, no inline script). */
test('no page logs a Content-Security-Policy violation', async ({ page }) => {
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
  for (const path of ['/chats', '/settings', '/users', '/santitos', '/domains', '/departments']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    // Parse something with the shared schemas on each page (forms validate with them).
    await page.waitForLoadState('networkidle');
  }
  expect(violations).toEqual([]);
});
