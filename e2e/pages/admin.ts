import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** A short tag unique to this run and project, to name what a test creates. */
export function runTag(info: TestInfo): string {
  return `${info.project.name.slice(0, 1)}${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/**
 * Opens a grid row's action menu (`Ações de …`) and picks `action`. The open is retried: a list that
 * re-lays out under the pointer (a search's answer arriving) can swallow a click, as it would a person's.
 */
export async function rowAction(page: Page, row: Locator, action: string): Promise<void> {
  const menu = page.getByRole('menu');
  const item = menu.getByRole('menuitem', { name: action, exact: true });
  // The last action's menu, still closing, must not be taken for this row's.
  await expect(menu).toHaveCount(0);
  await expect(async () => {
    if ((await menu.count()) === 0) await row.getByRole('button', { name: /^Ações de / }).click();
    await expect(item).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await item.click();
}

/** Picks `option` in a select: a native one (the platform's picker) or a Mantine combobox. */
export async function choose(page: Page, select: Locator, option: string): Promise<void> {
  if ((await select.evaluate((element) => element.tagName)) === 'SELECT') {
    await select.selectOption({ label: option });
    return;
  }
  const item = page.getByRole('option', { name: option, exact: true });
  // Retried: on a phone, focusing a select low on a scrolled page can move the page, and the list,
  // opened below a field no longer in sight, stays hidden until it is opened again.
  await expect(async () => {
    if (!(await item.isVisible())) await select.click();
    await expect(item).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await item.click();
}

/** The dialog titled `title`. */
export function dialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title });
}

/** Confirms the confirmation dialog titled `title` with its `button`. */
export async function confirm(page: Page, title: string, button: string): Promise<Locator> {
  const box = dialog(page, title);
  await expect(box).toBeVisible();
  await box.getByRole('button', { name: button, exact: true }).click();
  return box;
}

/** The popup (global notification) showing `title`. */
export function popup(page: Page, title: string | RegExp): Locator {
  return page.getByText(title).first();
}

/** A full-page screenshot kept with the test's artifacts. */
export async function screenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  // Let popups and dialog transitions settle so the picture shows the state the test reached.
  await page.waitForTimeout(300);
  const path = info.outputPath(`${name}-${info.project.name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}
