import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './playwright.config.ts';

/** The extension in a real VS Code (code-server), driven in Chromium; one journey, one worker. */
export default defineConfig({
  testDir: 'e2e/vscode',
  testMatch: '**/*.spec.ts',
  workers: 1,
  retries: 0,
  timeout: 240_000,
  expect: { timeout: 20_000 },
  outputDir: 'test-results/vscode-e2e',
  reporter: [['list'], ['json']],
  use: {
    locale: 'pt-BR',
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
});
