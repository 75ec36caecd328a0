// The JavaScript weight of the two pages people reach without the signed-in app (issue 30): the
// embedded chat a site's iframe loads (docs/ARCHITECTURE.md#embedded-chat), opened from the
// launcher on a host page of another origin, and a shared chat's page `/s/{id}`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { startLlmFixture } from '../apps/server/src/test/llm-fixture.ts';
import { launchChromium, startPageServer, waitReady } from './browser.ts';
import { EMAIL, loadScripts, makeChat, PASSWORD, type Script, signIn, sum } from './chats-page.ts';

/** The bar: the embedded chat's page loads at most this much gzipped JavaScript, all told. */
const EMBEDDED_MAX_GZIP_JS_KB = 150;
/** The share page's aim (no hard bar): what its reader downloads before the first message shows. */
const SHARE_AIM_GZIP_JS_KB = 200;

export interface EmbeddedPageWeight {
  /** Gzipped JavaScript the embedded chat's frame loaded by network idle (embed.js not counted). */
  gzipJsKB: number;
  jsFiles: number;
  /** Of it, what arrived before the visitor's message box was editable. */
  beforeSendGzipJsKB: number;
  /** The launcher script on the host page (embed.js), gzipped, for reference. */
  launcherGzipKB: number;
  files: Script[];
  share: {
    /** Gzipped JavaScript before the shared chat's first message showed. */
    gzipJsKB: number;
    /** …and after it, by network idle. */
    laterGzipJsKB: number;
    files: Script[];
  };
  budget: { maxGzipJsKB: number; shareAimGzipJsKB: number; ok: boolean };
}

async function startHost(html: () => string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function api(
  base: string,
  token: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Opens the launcher on the host page and records the frame's scripts until the network is idle. */
async function loadEmbedded(page: Page, base: string, hostOrigin: string) {
  const scripts: Array<{ url: string; body: Promise<Buffer> }> = [];
  let launcher = 0;
  const onResponse = (res: Response) => {
    if (res.request().resourceType() !== 'script' || !res.url().startsWith(base)) return;
    const url = new URL(res.url()).pathname;
    const body = res.body().catch(async () => Buffer.from(await (await fetch(res.url())).arrayBuffer()));
    body.catch(() => undefined);
    if (url === '/embed.js') void body.then((b) => (launcher = gzipSync(b).length / 1024));
    else scripts.push({ url, body });
  };
  // In the frame: the moment its message box is first editable, in the frame's clock.
  // A string, not a function: tsx would wrap a function's inner closures in a helper the page lacks.
  await page.addInitScript({
    content: `(() => {
      if (!location.pathname.includes('/embedded/')) return;
      performance.setResourceTimingBufferSize(1000);
      const seen = () => {
        const box = document.querySelector('[data-testid="composer-input"]');
        if (!box || box.disabled) return false;
        window.canSendAt = performance.now();
        return true;
      };
      new MutationObserver((_, observer) => {
        if (seen()) observer.disconnect();
      }).observe(document, { subtree: true, childList: true, attributes: true });
    })();`,
  });
  page.on('response', onResponse);
  await page.goto(hostOrigin);
  // The launcher sits in a closed shadow root: Tab to it (as a visitor would), then Enter.
  const launcherFocused = () =>
    page.evaluate(() => document.activeElement?.matches('[data-assistente]') === true);
  for (let i = 0; i < 100 && !(await launcherFocused()); i++) {
    await page.keyboard.press('Tab');
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.keyboard.press('Enter');
  const frame = await (async () => {
    for (let i = 0; i < 300; i++) {
      const found = page.frames().find((f) => f.url().includes('/embedded/'));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the embedded chat frame never opened');
  })();
  await frame.locator('[data-testid="composer-input"]:not([disabled])').waitFor();
  await page.waitForLoadState('networkidle');
  await new Promise((r) => setTimeout(r, 500));
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const clock = (await frame.evaluate(`({
    canSendAt: window.canSendAt,
    received: performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, e.responseEnd]),
  })`)) as { canSendAt: number | undefined; received: Array<[string, number]> };
  if (clock.canSendAt === undefined) throw new Error('the embedded message box was never seen editable');
  const canSendAt = clock.canSendAt;
  const received = new Map(clock.received);
  const files = await Promise.all(
    scripts.map(async (s) => ({
      url: s.url,
      // The frame's entry script is not among its resource entries: it came before anything else.
      early: (received.get(s.url) ?? 0) <= canSendAt,
      gzipKB: gzipSync(await s.body).length / 1024,
    })),
  );
  return { files, launcher };
}

/**
 * Serves the built app with an OpenAI-compatible fixture behind it; an admin makes a chat and
 * shares it, and an embed allowed on a host page of another origin. Then, with the cache disabled
 * and 4× CPU throttling: the embedded chat opened from the launcher, and the share page.
 */
export async function measureEmbeddedPage(): Promise<EmbeddedPageWeight> {
  const fixture = await startLlmFixture({
    script: { text: 'Uma função pura devolve sempre o mesmo resultado para os mesmos argumentos.' },
    record: false,
  });
  const port = 3292;
  const base = `http://127.0.0.1:${port}`;
  let hostHtml = '';
  const host = await startHost(() => hostHtml);
  const server = startPageServer('embedded-page', port, {
    PUBLIC_URL: base,
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    OPENAI_BASE_URL: fixture.baseUrl,
    OPENAI_API_KEY: 'test',
    DEFAULT_MODEL: 'openai:fixture-small',
  });
  try {
    await waitReady(base, 'embedded-page');
    const signedIn = await fetch(`${base}/identity/v1/accounts:signInWithPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD, returnSecureToken: true }),
    });
    const { idToken } = (await signedIn.json()) as { idToken: string };
    const embed = await api(base, idToken, '/api/v1/virtual_account', {
      displayName: 'Loja',
      allowedOrigins: [host.origin],
    });
    hostHtml = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Loja</title></head><body><h1>Loja</h1><script src="${base}/embed.js" data-virtual-account="${String(embed.virtualAccountId)}" async></script></body></html>`;

    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
      await signIn(page, base);
      const chatPath = await makeChat(page, base);
      const chatId = chatPath.split('/').pop() ?? '';
      const share = await api(base, idToken, `/api/v1/chats/${chatId}/shares`, { audience: 'domain' });

      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const shared = await loadScripts(page, `${base}/s/${String(share.shareId)}`, '[data-testid="message"]');

      // A visitor: a browser of their own, nothing cached, the page's CPU throttled like the others.
      const visitor = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
      const visitorPage = await visitor.newPage();
      const visitorCdp = await visitor.newCDPSession(visitorPage);
      await visitorCdp.send('Network.enable');
      await visitorCdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await visitorCdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const embedded = await loadEmbedded(visitorPage, base, host.origin);
      await visitor.close();

      const files = embedded.files
        .map(({ url, gzipKB }) => ({ url, gzipKB }))
        .sort((a, b) => b.gzipKB - a.gzipKB);
      const gzipJsKB = sum(files);
      const shareEarly = shared.early.sort((a, b) => b.gzipKB - a.gzipKB);
      return {
        gzipJsKB,
        jsFiles: files.length,
        beforeSendGzipJsKB: sum(embedded.files.filter((f) => f.early)),
        launcherGzipKB: embedded.launcher,
        files,
        share: { gzipJsKB: sum(shareEarly), laterGzipJsKB: sum(shared.later), files: shareEarly },
        budget: {
          maxGzipJsKB: EMBEDDED_MAX_GZIP_JS_KB,
          shareAimGzipJsKB: SHARE_AIM_GZIP_JS_KB,
          ok: gzipJsKB <= EMBEDDED_MAX_GZIP_JS_KB,
        },
      };
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
    await fixture.close();
    await host.close();
  }
}

const kb = (n: number) => `${n.toFixed(1)} KB`;

export function describeEmbeddedPage(r: EmbeddedPageWeight): string {
  const top = (files: Script[]) =>
    files
      .slice(0, 3)
      .map((f) => `${f.url.replace(/^\/assets\//, '')} ${kb(f.gzipKB)}`)
      .join(', ');
  return [
    `embedded chat page: ${kb(r.gzipJsKB)} gzipped JS in ${r.jsFiles} files at network idle (${kb(r.beforeSendGzipJsKB)} before the visitor can send; embed.js ${kb(r.launcherGzipKB)} on the host page), bar ${r.budget.maxGzipJsKB} KB: ${r.budget.ok ? 'OK' : 'OVER BUDGET'}`,
    `  largest: ${top(r.files)}`,
    `share page /s/{id}: ${kb(r.share.gzipJsKB)} before the first message + ${kb(r.share.laterGzipJsKB)} later (aim ${r.budget.shareAimGzipJsKB} KB: ${r.share.gzipJsKB <= r.budget.shareAimGzipJsKB ? 'met' : 'not met'})`,
    `  largest: ${top(r.share.files)}`,
  ].join('\n');
}

// `node --import tsx bench/embedded-page.ts` prints the figures.
if (import.meta.url === `file://${process.argv[1]}`) {
  measureEmbeddedPage().then(
    (r) => {
      console.log(JSON.stringify(r, null, 2));
      console.log(describeEmbeddedPage(r));
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
