import { expect, type Page, test } from '@playwright/test';
import { byProject, people } from './fixtures/env.ts';
import { confirm, dialog, popup, runTag, screenshot } from './pages/admin.ts';
import { signIn } from './pages/login.ts';

test.describe.configure({ timeout: 90_000 });

const base = () => process.env.E2E_BASE_URL ?? `http://localhost:${process.env.E2E_PORT ?? 3210}`;

/** What the OpenAI-compatible API answers this key: the status, and the model ids when listed. */
async function listModels(secret: string): Promise<{ status: number; ids: string[] }> {
  const res = await fetch(`${base()}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
  const body = (await res.json()) as { data?: Array<{ id: string }> };
  return { status: res.status, ids: (body.data ?? []).map((m) => m.id) };
}

/** Creates a key named `name` in /settings → API keys and returns its secret, read from the dialog. */
async function createKey(page: Page, name: string): Promise<string> {
  await page.getByTestId('api-key-create').click();
  const form = dialog(page, 'Nova chave de API');
  await form.getByTestId('api-key-name').fill(name);
  await form.getByRole('button', { name: 'Criar chave' }).click();
  const shown = dialog(page, 'Copie sua chave agora');
  await expect(shown).toBeVisible();
  const secret = (await shown.getByTestId('api-key-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^ak_[A-Za-z0-9_-]{43}$/);
  return secret;
}

test('API keys: create one, use it with the OpenAI-compatible API, revoke it; an Admin revokes another', async ({
  page,
  browser,
}, info) => {
  const person = byProject(info.project.name, people.apiKeysDesktop, people.apiKeysMobile);
  const tag = runTag(info);
  await signIn(page, person);
  await page.goto('/settings?tab=apiKeys');
  await expect(page.getByRole('tab', { name: 'Chaves de API' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('api-base-url')).toHaveText(`${base()}/v1`);

  const first = await createKey(page, `Script ${tag}`);
  await screenshot(page, info, 'api-keys-secret');
  await dialog(page, 'Copie sua chave agora').getByTestId('api-key-done').click();
  const row = page.getByTestId('api-key-row').filter({ hasText: `Script ${tag}` });
  await expect(row).toBeVisible();
  // Shown once: the list has only its start.
  await expect(page.getByText(first)).toHaveCount(0);
  await expect(row).toContainText(first.slice(0, 11));

  const listed = await listModels(first);
  expect(listed.status).toBe(200);
  expect(listed.ids.length).toBeGreaterThan(0);
  await page.reload();
  await expect(row).not.toContainText('Nunca usada');
  await screenshot(page, info, 'api-keys-list');

  await row.getByRole('button', { name: `Revogar Script ${tag}` }).click();
  await confirm(page, 'Revogar esta chave?', 'Revogar chave');
  await expect(popup(page, `Chave “Script ${tag}” revogada`)).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await listModels(first)).status).toBe(401);

  // An Admin of the organisation sees the person's keys in /integration and revokes one.
  const second = await createKey(page, `CI ${tag}`);
  await dialog(page, 'Copie sua chave agora').getByTestId('api-key-done').click();
  expect((await listModels(second)).status).toBe(200);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, byProject(info.project.name, people.apiKeysAdminDesktop, people.apiKeysAdminMobile));
  await admin.goto('/integration');
  await admin.getByRole('tab', { name: 'Chaves de API' }).click();
  await expect(admin).toHaveURL(/tab=api-keys/);
  const theirs = admin.getByTestId('api-key-row').filter({ hasText: `CI ${tag}` });
  await expect(theirs).toContainText(person.email);
  await screenshot(admin, info, 'integration-api-keys');
  await theirs.getByRole('button', { name: `Revogar CI ${tag}` }).click();
  await confirm(admin, 'Revogar esta chave?', 'Revogar chave');
  await expect(theirs).toHaveCount(0);
  expect((await listModels(second)).status).toBe(401);
  await adminContext.close();
});

test('API keys: the empty list says what keys are for, in English too', async ({ page }, info) => {
  // Someone who holds no key, and whom the other journey does not sign in.
  await signIn(page, byProject(info.project.name, people.profileDesktop, people.profileMobile));
  await page.goto('/en/settings?tab=apiKeys');
  await expect(page.getByRole('tab', { name: 'API keys' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await screenshot(page, info, 'api-keys-en');
});
