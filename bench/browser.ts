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
