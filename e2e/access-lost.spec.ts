import { expect, test } from '@playwright/test';
import { apiSignIn } from './fixtures/api.ts';
import { byProject, PASSWORD, people } from './fixtures/env.ts';
import { signIn } from './pages/login.ts';

test('a tab whose session ended elsewhere is signed out at once, saying why', async ({
  page,
  request,
}, info) => {
  const person = byProject(info.project.name, people.revokedDesktop, people.revokedMobile);
  await signIn(page, person);
  await page.goto('/chats');
  await expect(page.getByRole('textbox').first()).toBeVisible();

  // The password is changed on another device: every other session of the account ends.
  const { idToken } = await apiSignIn(request, person.email);
  const changed = await request.post('/identity/v1/accounts:update', {
    data: { idToken, password: `${PASSWORD}-new`, returnSecureToken: true },
  });
  expect(changed.ok()).toBe(true);

  await expect(page).toHaveURL(/\/auth\/login/, { timeout: 10_000 });
  await expect(page.getByTestId('signed-out-reason')).toContainText('Sua sessão foi encerrada');
});

test('a tab of a user deactivated by an Admin is signed out at once, saying why', async ({
  page,
  request,
}, info) => {
  const person = byProject(info.project.name, people.deactivatedDesktop, people.deactivatedMobile);
  await signIn(page, person);
  await page.goto('/chats');
  await expect(page.getByRole('textbox').first()).toBeVisible();

  const admin = await apiSignIn(request, people.admin.email);
  const headers = { authorization: `Bearer ${admin.idToken}` };
  const user = await (await request.get(`/api/v1/user/${person.email}`, { headers })).json();
  const put = await request.put(`/api/v1/user/${person.email}`, {
    headers,
    data: { ...user, active: false },
  });
  expect(put.ok(), await put.text()).toBe(true);

  await expect(page).toHaveURL(/\/auth\/login/, { timeout: 10_000 });
  await expect(page.getByTestId('signed-out-reason')).toContainText('Sua conta foi desativada');
  // Back, forward or typing an address shows no cached page.
  await page.goto('/chats');
  await expect(page).toHaveURL(/\/auth\/login/);
});
