import { createHmac } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { bearerOf } from './fixtures/api.ts';
import { people } from './fixtures/env.ts';
import { runTag } from './pages/admin.ts';
import {
  askAndWait,
  claimsOf,
  type Host,
  hostPage,
  launcherShown,
  makeEmbed,
  openWithKeyboard,
  snippet,
  withHost,
} from './pages/embedHost.ts';

// A host page that knows its visitor names them to the embedded chat (docs/ARCHITECTURE.md#embedded-chat):
// `Assistente.identify` with an HMAC of the site's own server, checked before any session is made.

test.describe.configure({ timeout: 120_000 });

/**
 * Runs `journey` on a host site with a new embed allowed there, whose visitors the site names, each
 * call signed with the embed's secret.
 */
async function withSignedEmbed(
  request: APIRequestContext,
  displayName: string,
  welcome: string,
  journey: (host: Host, id: string, secret: string) => Promise<void>,
): Promise<void> {
  await withHost(async (host) => {
    const { virtualAccountId, secret } = await makeEmbed(request, {
      displayName,
      allowedOrigins: [host.origin],
      welcome,
      identity: 'signed',
    });
    await journey(host, virtualAccountId, secret);
  });
}

/** What the site's own server does: HMAC-SHA256 of `${id}.${ts}` under the embed's secret. */
const signature = (secret: string, visitorId: string, ts: number) =>
  createHmac('sha256', secret).update(`${visitorId}.${ts}`).digest('hex');

test('a signed visitor: the host page identifies them with its HMAC; a tampered signature starts nothing', async ({
  page: p,
  request,
  baseURL,
}, info) => {
  const admin = await bearerOf(request, people.admin.email);
  const welcome = 'Olá, cliente! Em que posso ajudar?';
  await withSignedEmbed(request, `Loja assinada ${runTag(info)}`, welcome, async (host, id, secret) => {
    const sign = (visitorId: string, ts: number) => signature(secret, visitorId, ts);
    host.html = hostPage(snippet(baseURL, id));
    const visitors = async () => {
      const res = await request.get(`/api/v1/virtual_account/${id}`, { headers: admin });
      return ((await res.json()) as { stats: { visitors: number } }).stats.visitors;
    };
    const sessions: number[] = [];
    p.on('response', (r) => {
      if (r.url().endsWith(`/embedded/${id}/session`)) sessions.push(r.status());
    });
    type Identify = { id: string; name: string; email: string; ts: number; sig: string };
    const identify = (v: Identify) =>
      p.evaluate((visitor) => {
        (window as unknown as { Assistente: { identify(v: Identify): void } }).Assistente.identify(visitor);
      }, v);

    await p.goto(host.origin);
    await expect.poll(() => launcherShown(p)).toBe(true);
    const ts = Math.floor(Date.now() / 1000);
    const maria = { id: 'cliente-42', name: 'Maria Souza', email: 'maria@loja.test', ts };
    const good = sign(maria.id, ts);
    // One hex digit changed: the signature no longer matches.
    const tampered = `${good[0] === '0' ? '1' : '0'}${good.slice(1)}`;

    await identify({ ...maria, sig: tampered });
    const frame = await openWithKeyboard(p);
    await expect(frame.getByRole('alert')).toHaveText(/confirmar quem você é/);
    await expect(frame.getByRole('textbox')).toHaveCount(0);
    await p.screenshot({ path: info.outputPath(`embeds-host-signature-refused-${info.project.name}.png`) });
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s) => s === 401)).toBe(true);
    // Nothing was made: no visitor, and no session kept by the host page.
    expect(await visitors()).toBe(0);
    expect(await p.evaluate((key) => localStorage.getItem(key), `assistente:${id}`)).toBeNull();

    // The site signs the same visitor properly: the panel starts their chat at once.
    await identify({ ...maria, sig: good });
    await expect(frame.getByText(welcome)).toBeVisible();
    await expect(frame.getByRole('alert')).toHaveCount(0);
    await askAndWait(frame, 'Onde está o meu pedido?');
    expect(await visitors()).toBe(1);

    // The chat is Maria's: her session names her, and her chats (and only hers) hold it.
    const record = await p.evaluate((key) => localStorage.getItem(key), `assistente:${id}`);
    expect(record).not.toBeNull();
    const visitorToken = (JSON.parse(record ?? '{}') as { idToken: string }).idToken;
    const claims = claimsOf(visitorToken);
    expect(claims.name).toBe('Maria Souza');
    expect(claims.sub).toBe(`va:${id}:cliente-42`);
    const chats = await request.get('/api/v1/chats', {
      headers: { authorization: `Bearer ${visitorToken}`, origin: host.origin },
    });
    expect(chats.status(), await chats.text()).toBe(200);
    const list = (await chats.json()) as { chatId: string }[];
    expect(list).toHaveLength(1);
    expect(frame.url()).toContain(`/chats/${list[0]?.chatId}`);
  });
});

test('a host page identifies its visitor before embed.js has loaded: the call is queued and replayed', async ({
  page: p,
  request,
  baseURL,
}, info) => {
  const welcome = 'Olá, cliente da fila!';
  await withSignedEmbed(request, `Loja fila ${runTag(info)}`, welcome, async (host, id, secret) => {
    const ts = Math.floor(Date.now() / 1000);
    const sig = signature(secret, 'cliente-7', ts);
    const visitor = { id: 'cliente-7', name: 'João Lima', email: 'joao@loja.test', ts, sig };
    // The README's snippet, as a site pastes it: the stub, the call, then the async script.
    host.html = hostPage(`<script>
window.Assistente = window.Assistente || function () { (Assistente.q = Assistente.q || []).push(arguments) };
Assistente('identify', ${JSON.stringify(visitor)});
window.addEventListener('assistente:ready', function () { window.assistenteReady = typeof Assistente.identify; });
</script>
<script src="${baseURL}/embed.js" data-virtual-account="${id}" async></script>`);
    // embed.js held back until the page has run its own script: the call is made before it loads.
    let releaseScript: () => void = () => {};
    const scriptHeld = new Promise<void>((resolve) => {
      releaseScript = resolve;
    });
    await p.route('**/embed.js', async (route) => {
      await scriptHeld;
      await route.continue();
    });
    // João's session is slow to come: the new frame, finding none, must not get a second one
    // that the slow one then replaces under the chat he began (as a loaded CI once showed).
    let sessionsAsked = 0;
    let sessionCame: () => void = () => {};
    const sessionDone = new Promise<void>((resolve) => {
      sessionCame = resolve;
    });
    await p.route(`**/api/v1/embedded/${id}/session`, async (route) => {
      sessionsAsked += 1;
      if (sessionsAsked === 1) await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
      sessionCame();
    });
    // And the frame slower still (a loaded CI's order): his session is there before it is ready,
    // and it must be the one the frame takes, not a reason to ask for another.
    await p.route(`**/embedded/${id}/chats`, async (route) => {
      await sessionDone;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    await p.goto(host.origin, { waitUntil: 'domcontentloaded' });
    expect(await p.evaluate(() => (window as { Assistente?: { q?: unknown[] } }).Assistente?.q?.length)).toBe(
      1,
    );
    releaseScript();

    await expect
      .poll(() => p.evaluate(() => (window as { assistenteReady?: string }).assistenteReady))
      .toBe('function');
    const frame = await openWithKeyboard(p);
    await expect(frame.getByText(welcome)).toBeVisible();
    await expect(frame.getByRole('alert')).toHaveCount(0);
    await askAndWait(frame, 'Onde está o meu pedido?');
    // The chat is João's: the replayed identify made his session.
    const record = await p.evaluate((key) => localStorage.getItem(key), `assistente:${id}`);
    const claims = claimsOf((JSON.parse(record ?? '{}') as { idToken: string }).idToken);
    expect(claims.sub).toBe(`va:${id}:cliente-7`);
    expect(claims.name).toBe('João Lima');
    expect(sessionsAsked).toBe(1);
  });
});
