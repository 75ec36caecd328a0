import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type APIRequestContext, expect, type Frame, type Page } from '@playwright/test';
import { bearerOf } from '../fixtures/api.ts';
import { people } from '../fixtures/env.ts';

// Someone else's site for the embed journeys (docs/ARCHITECTURE.md#embedded-chat): a page on another
// loopback origin that carries the one-line snippet, and the launcher's iframe of the app on it.

export interface Host {
  origin: string;
  /** The page with the snippet (the server answers `/plain` without it). */
  html: string;
  close(): Promise<void>;
}

export async function startHost(): Promise<Host> {
  const host: Host = { origin: '', html: '', close: async () => {} };
  const server: Server = createServer((req, res) => {
    const plain = req.url === '/plain';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(plain ? host.html.replace(/<script[^>]*embed\.js[^>]*><\/script>/, '') : host.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The browser may still hold a connection (a preconnect, a keep-alive socket): `close` alone
  // waits for it until the page closes, which is after the journey's `finally` — a hang until the
  // test's timeout, seen in CI. Dropping them is safe: the journey is over.
  host.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return host;
}

/** Runs `journey` with a host site up, and takes the site down after, whatever happened. */
export async function withHost(journey: (host: Host) => Promise<void>): Promise<void> {
  const host = await startHost();
  try {
    await journey(host);
  } finally {
    await host.close();
  }
}

/** The host site's page, with `snippet` at the end of its body. */
export const hostPage = (snippet: string) =>
  `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Loja</title></head>
<body style="font-family:serif;margin:24px"><h1>Loja de exemplo</h1><p>Produtos, preços e ofertas.</p><a href="#top">Início</a>
${snippet}
</body></html>`;

/** The one line a site pastes. */
export const snippet = (baseURL: string | undefined, id: string) =>
  `<script src="${baseURL}/embed.js" data-virtual-account="${id}" async></script>`;

/** The launcher sits in a closed shadow root: what is at its spot, and what has focus, is its host. */
export async function launcherShown(p: Page): Promise<boolean> {
  return p.evaluate(() => {
    const at = document.elementFromPoint(window.innerWidth - 40, window.innerHeight - 40);
    return at?.matches('[data-assistente]') === true;
  });
}

/** Whether the launcher has the keyboard focus. */
export async function launcherFocused(p: Page): Promise<boolean> {
  return p.evaluate(() => document.activeElement?.matches('[data-assistente]') === true);
}

export async function chatFrame(p: Page): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(() => {
      found = p.frames().find((f) => f.url().includes('/embedded/'));
      return Boolean(found);
    })
    .toBe(true);
  return found as Frame;
}

export async function openWithKeyboard(p: Page): Promise<Frame> {
  await expect.poll(() => launcherShown(p)).toBe(true);
  // The page's own link first, then the launcher.
  for (let i = 0; i < 5; i++) {
    await p.keyboard.press('Tab');
    if (await launcherFocused(p)) break;
  }
  expect(await launcherFocused(p)).toBe(true);
  await p.keyboard.press('Enter');
  return chatFrame(p);
}

/**
 * Sends `text` from the embedded chat as a visitor would: once its send button is enabled (the chat's
 * connection is up; before that Enter keeps the text and sends nothing).
 */
export async function sendFromFrame(frame: Frame, text: string): Promise<void> {
  const box = frame.getByRole('textbox');
  await box.fill(text);
  await expect(frame.getByRole('button', { name: 'Enviar mensagem' })).toBeEnabled();
  await box.press('Enter');
  await expect(box).toHaveValue('');
}

/** Sends `text` from the embedded chat and waits for the model fixture's answer to finish. */
export async function askAndWait(frame: Frame, text: string): Promise<void> {
  await sendFromFrame(frame, text);
  await expect(frame.getByText('Espero que ajude', { exact: false })).toBeVisible({ timeout: 30_000 });
}

/** A new embed of the Admin's domain, made through the API, with its id and (once) its secret. */
export async function makeEmbed(
  request: APIRequestContext,
  data: Record<string, unknown>,
): Promise<{ virtualAccountId: string; secret: string }> {
  const made = await request.post('/api/v1/virtual_account', {
    headers: await bearerOf(request, people.admin.email),
    data,
  });
  expect(made.status(), await made.text()).toBe(201);
  return (await made.json()) as { virtualAccountId: string; secret: string };
}

/** An embed allowed on `host`, its snippet on the host's page, opened there from the keyboard. */
export async function openEmbedOnHost(
  p: Page,
  request: APIRequestContext,
  baseURL: string | undefined,
  host: Host,
  data: Record<string, unknown>,
): Promise<Frame> {
  const { virtualAccountId } = await makeEmbed(request, { ...data, allowedOrigins: [host.origin] });
  host.html = hostPage(snippet(baseURL, virtualAccountId));
  await p.goto(host.origin);
  return openWithKeyboard(p);
}

/** The claims of a JWT (read, not verified: the server that issued it is the one checking). */
export const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
