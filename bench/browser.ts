import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../playwright.config.ts';

/** Waits (up to a minute) until the server at `base` answers `/readyz`; `name` says which bench's. */
export async function waitReady(base: string, name: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // starting
    }
    if (i > 300) throw new Error(`server for the ${name} bench did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Debian's Chromium (or CHROMIUM_PATH) with the e2e run's flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/**
 * The server from source on `port`, as a new user starts it (embedded database, no Redis), over a
 * fresh data directory named for `name`, with `env` on top (its first admin, its provider).
 */
export function startPageServer(name: string, port: number, env: Record<string, string>): ChildProcess {
  const root = path.resolve(import.meta.dirname, '..');
  return spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), `assistente-bench-${name}-`)),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
    },
    stdio: 'ignore',
  });
}
