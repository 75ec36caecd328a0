import { expect, test } from '@playwright/test';
import { people } from './fixtures/env.ts';
import { signIn } from './pages/login.ts';

test('after signing in, the focus is on the page’s content, with a skip link first in line', async ({
  page,
}) => {
  await signIn(page, people.viewer);
  await expect(page.getByRole('main')).toBeFocused();
  // A page the browser loads itself keeps the focus at the top: the skip link is the first stop.
  await page.goto('/settings');
  await expect(page.getByRole('tab').first()).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Pular para o conteúdo' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});

test('a tab list that does not fit scrolls sideways and fades the edge that hides more tabs', async ({
  page,
}, info) => {
  await signIn(page, people.admin);
  // Spanish labels are the longest: at 1280 px they no longer fit beside the navigation.
  await page.goto(info.project.name === 'mobile' ? '/settings' : '/es/settings');
  const strip = page.getByTestId('tab-strip');
  await expect(strip.getByRole('tab').first()).toBeVisible();
  await expect(strip).toHaveAttribute('data-more-end', 'true');
  await expect(strip).not.toHaveAttribute('data-more-start', /.*/);
  // The last tab is a scroll away; once there, the fade moves to the other edge.
  await strip.getByRole('tab').last().scrollIntoViewIfNeeded();
  await expect(strip).toHaveAttribute('data-more-start', 'true');
  await expect(strip).not.toHaveAttribute('data-more-end', /.*/);
});
