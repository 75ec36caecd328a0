import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { startLlmFixture } from '../apps/server/src/test/llm-fixture.ts';
import { launchChromium, startPageServer, waitReady } from './browser.ts';

const root = path.resolve(import.meta.dirname, '..');

/** The bar: `/chats` loads at most this much gzipped JavaScript before the first message shows. */
const CHATS_MAX_GZIP_JS_KB = 200;
/** …and at most this much in all, once the network is idle (the first message's JS and what comes after). */
const CHATS_MAX_GZIP_JS_AT_IDLE_KB = 250;

export interface ChatsPageWeight {
  /** Gzipped JavaScript received before the first message of the chat was visible. */
  gzipJsKB: number;
  jsFiles: number;
  /** Navigation to the first message visible, with 4× CPU throttling. */
  loadMs: number;
  /** Scripts that arrived after the first message (lazy chunks such as the highlighter), gzipped. */
  laterGzipJsKB: number;
  /** For comparison: the signed-in home page `/` (the shell every signed-in page shares), gzipped. */
  homeGzipJsKB: number;
  files: Array<{ url: string; gzipKB: number }>;
  budget: { maxGzipJsKB: number; maxGzipJsAtIdleKB: number; ok: boolean };
}

export const EMAIL = 'bench-chats@bench.test';
export const PASSWORD = 'bench-password-Q9x!';

export async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/auth/login`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page
    .getByTestId('home-greeting')
    .waitFor()
    .catch(async (error: unknown) => {
      await page.screenshot({ path: path.join(root, 'bench/results/chats-page-failure.png') });
      throw error;
    });
}

/** Makes the user's one chat through the UI (a question and its streamed answer); returns its path. */
export async function makeChat(page: Page, base: string): Promise<string> {
  await page.goto(`${base}/chats`);
  const input = page.getByTestId('composer-input');
  await input.waitFor();
  await page
    .locator('[data-testid="send"]:not([disabled]), [data-testid="composer-input"]')
    .first()
    .waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid="connection-state"]'));
  await input.fill('Explique o que é uma função pura.');
  await input.press('Enter');
  await page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
  await page.locator('[data-testid="message"][data-role="assistant"][data-status="complete"]').waitFor();
  return new URL(page.url()).pathname;
}

export type Script = { url: string; gzipKB: number };
export const sum = (files: Script[]) => files.reduce((n, f) => n + f.gzipKB, 0);

/**
 * Records, in the page's own clock, the first animation frame in which `selector` matches a
 * rendered element. Playwright's `waitFor` polls with a backoff (up to 500 ms between checks), so
 * the moment it returns can be well after the element was painted; comparing that moment with
 * when responses reached Node would count scripts fetched after the paint as "before".
 */
function shownAtScript(selector: string): string {
  return `(() => {
    const selector = ${JSON.stringify(selector)};
    const shown = (window.__benchShownAt ??= {});
    performance.setResourceTimingBufferSize(1000);
    const check = () => {
      if (shown[selector] !== undefined) return;
      const el = document.querySelector(selector);
      if (el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden') {
        shown[selector] = performance.now();
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })();`;
}

/** Loads `url` (cache disabled) and splits the scripts received before and after `selector` showed. */
export async function loadScripts(
  page: Page,
  url: string,
  selector: string,
): Promise<{ early: Script[]; later: Script[]; loadMs: number }> {
  const scripts: Array<{ url: string; body: Promise<Buffer> }> = [];
  const onResponse = (res: Response) => {
    if (res.request().resourceType() !== 'script') return;
    // A response the page navigated away from has no body left in the browser: the same static
    // file is read again from the server (awaited below; a failure must not orphan the server).
    const body = res.body().catch(async () => Buffer.from(await (await fetch(res.url())).arrayBuffer()));
    body.catch(() => undefined);
    scripts.push({ url: new URL(res.url()).pathname, body });
  };
  await page.addInitScript({ content: shownAtScript(selector) });
  page.on('response', onResponse);
  const t0 = Date.now();
  await page.goto(url);
  await page.locator(selector).first().waitFor({ state: 'visible' });
  const loadMs = Date.now() - t0;
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  // When each script finished arriving and when the element was first painted, both in the page's clock.
  const clock = (await page.evaluate(`({
    shownAt: window.__benchShownAt?.[${JSON.stringify(selector)}],
    received: performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, e.responseEnd]),
  })`)) as { shownAt: number | undefined; received: Array<[string, number]> };
  if (clock.shownAt === undefined) throw new Error(`${selector} was never seen painted on ${url}`);
  const shownAt = clock.shownAt;
  const received = new Map(clock.received);
  const measured = await Promise.all(
    scripts.map(async (s) => ({
      url: s.url,
      early: (received.get(s.url) ?? 0) <= shownAt,
      gzipKB: gzipSync(await s.body).length / 1024,
    })),
  );
  const strip = ({ url: u, gzipKB }: Script) => ({ url: u, gzipKB });
  return {
    early: measured.filter((f) => f.early).map(strip),
    later: measured.filter((f) => !f.early).map(strip),
    loadMs,
  };
}

/**
 * Serves the built app with an OpenAI-compatible fixture behind it, signs a user in, makes one
 * chat, then reloads that chat with the cache disabled and 4× CPU throttling: the gzipped
 * JavaScript received before the first message is visible (≤ 200 KB) and by network idle (≤ 250 KB).
 */
export async function measureChatsPage(): Promise<ChatsPageWeight> {
  const fixture = await startLlmFixture({
    script: { text: 'Uma função pura devolve sempre o mesmo resultado para os mesmos argumentos.' },
    record: false,
  });
  const port = 3291;
  const base = `http://127.0.0.1:${port}`;
  const server = startPageServer('chats', port, {
    PUBLIC_URL: base,
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    OPENAI_BASE_URL: fixture.baseUrl,
    OPENAI_API_KEY: 'test',
    DEFAULT_MODEL: 'openai:fixture-small',
  });
  try {
    await waitReady(base, 'chats');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
      await signIn(page, base);
      const chatPath = await makeChat(page, base);

      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

      const home = await loadScripts(page, `${base}/`, '[data-testid="home-greeting"]');
      const chats = await loadScripts(page, `${base}${chatPath}`, '[data-testid="message"]');
      const early = chats.early.sort((a, b) => b.gzipKB - a.gzipKB);
      const gzipJsKB = sum(early);
      return {
        gzipJsKB,
        jsFiles: early.length,
        loadMs: chats.loadMs,
        laterGzipJsKB: sum(chats.later),
        homeGzipJsKB: sum(home.early),
        files: early,
        budget: {
          maxGzipJsKB: CHATS_MAX_GZIP_JS_KB,
          maxGzipJsAtIdleKB: CHATS_MAX_GZIP_JS_AT_IDLE_KB,
          ok: gzipJsKB <= CHATS_MAX_GZIP_JS_KB && gzipJsKB + sum(chats.later) <= CHATS_MAX_GZIP_JS_AT_IDLE_KB,
        },
      };
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
    await fixture.close();
  }
}

// `node --import tsx bench/chats-page.ts` prints the figures.
if (import.meta.url === `file://${process.argv[1]}`) {
  measureChatsPage().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
