import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LoginPage } from './pages/login.ts';

/**
 * The README's first run: a server started with no variables at all prints a sign-in line, and
 * that line signs in through the page at http://127.0.0.1:PORT and at http://localhost:PORT.
 */
const root = path.resolve(import.meta.dirname, '..');
const FIRST_RUN_LINE = /First run: sign in at (\S+)\/auth\/login as (\S+@\S+) with password (\S+)/;

// One server per project, shared by this file's tests: they run in one worker.
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let dataDir = '';
let port = 0;
let creds: { url: string; email: string; password: string };

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads which fixtures a hook destructures.
test.beforeAll(async ({}, testInfo) => {
  // Its own port per project: the desktop and mobile runs each start a first run of their own.
  port = Number(process.env.E2E_PORT ?? 3210) + (testInfo.project.name === 'mobile' ? 51 : 50);
  dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-first-run-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir };
  for (const k of [
    'ADMIN_EMAIL',
    'ADMIN_PASSWORD',
    'PUBLIC_URL',
    'DATABASE_URL',
    'REDIS_URL',
    'SMTP_URL',
    'HOST',
  ])
    delete env[k];
  server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  server.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  server.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = FIRST_RUN_LINE.exec(out);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (m && up) {
      creds = { url: m[1] ?? '', email: m[2] ?? '', password: m[3] ?? '' };
      break;
    }
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`no first run:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const closed = new Promise((r) => server?.once('close', r));
    server.kill('SIGTERM');
    await closed;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test('the printed first-run line names a page that exists and a real admin', async () => {
  expect(creds.url).toBe(`http://localhost:${port}`);
  expect(creds.email).toBe('admin@localhost');
});

for (const host of ['127.0.0.1', 'localhost']) {
  test(`the printed admin signs in through the page at http://${host}`, async ({ page }) => {
    await page.goto(`http://${host}:${port}/auth/login`);
    const login = new LoginPage(page);
    await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
    await expect(page.getByTestId('wrong-address')).toHaveCount(0);
    await login.fill(creds.email, creds.password);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expect(page).toHaveURL(`http://${host}:${port}/`);
    await expect(page.getByText('Olá, Administrador')).toBeVisible();
  });
}
