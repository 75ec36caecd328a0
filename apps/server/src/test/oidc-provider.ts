// A real OpenID Connect provider (`oidc-provider`, a certified implementation) on a loopback port,
// standing in for Google or Entra ID in the tests: discovery, JWKS, authorization code + PKCE,
// signed id tokens. Its sign-in page is ours and tiny: an e-mail, and whether the provider vouches
// for it (`email_verified`). Plain node:http, so the e2e setup can start it from plain Node too.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface OidcClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export interface OidcFixture {
  /** `http://127.0.0.1:<port>`: the issuer, also its base URL. */
  issuer: string;
  port: number;
  /** Adds or replaces a client (each test app registers its own redirect URI). */
  setClients(clients: OidcClient[]): void;
  /** Milliseconds the provider has spent answering requests so far (benches subtract it). */
  busyMs(): number;
  close(): Promise<void>;
}

/** The account id carries the claims: `v:` (verified) or `u:` (not), then the e-mail. */
const accountId = (email: string, verified: boolean) => `${verified ? 'v' : 'u'}:${email}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font-family:sans-serif;max-width:360px;margin:40px auto;padding:0 16px}label{display:block;margin:12px 0}input[type=email]{width:100%;padding:8px;box-sizing:border-box}button{padding:8px 16px}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;
}

const htmlText = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the provider on 127.0.0.1 (`port` 0: any free one). */
export async function startOidcProvider(
  opts: { port?: number; clients?: OidcClient[] } = {},
): Promise<OidcFixture> {
  const server: Server = createServer();
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  let clients = opts.clients ?? [];
  let provider = build();

  function build(): Provider {
    const configuration: Configuration = {
      clients: clients.map((c) => ({
        ...c,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: c.client_secret ? 'client_secret_post' : 'none',
      })),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // The claims of the requested scopes go into the id token, as Google's do.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      pkce: { required: () => true },
      async findAccount(_ctx, id) {
        const verified = id.startsWith('v:');
        const email = id.slice(2);
        return {
          accountId: id,
          async claims() {
            return { sub: id, email, email_verified: verified, name: email.split('@')[0] };
          },
        };
      },
      // First-party sign-in: no consent screen, every requested scope granted.
      async loadExistingGrant(ctx) {
        const session = ctx.oidc.session;
        const client = ctx.oidc.client;
        if (!session?.accountId || !client) return undefined;
        const grant = new ctx.oidc.provider.Grant({
          clientId: client.clientId,
          accountId: session.accountId,
        });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
      cookies: { keys: ['test-cookie-key-not-secret'] },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 600,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
      },
    };
    const p = new Provider(issuer, configuration);
    // Errors the tests provoke on purpose (replayed codes, wrong verifiers) are not news.
    p.on('server_error', () => {});
    return p;
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (req.method === 'GET' && !action) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(
        page(
          'Test identity provider',
          `<form method="post" action="/interaction/${htmlText(uid)}/login">
<label>E-mail <input type="email" name="email" required autofocus></label>
<label><input type="checkbox" name="verified" value="1" checked> E-mail verified</label>
<button type="submit">Sign in</button></form>
<form method="post" action="/interaction/${htmlText(uid)}/abort"><button type="submit">Cancel</button></form>`,
        ),
      );
      return;
    }
    if (req.method === 'POST' && action === 'login') {
      const form = await readForm(req);
      const email = (form.get('email') ?? '').trim();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: accountId(email, form.get('verified') === '1') } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (req.method === 'POST' && action === 'abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person cancelled' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    res.writeHead(404).end();
  }

  let busy = 0;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    res.once('finish', () => {
      busy += performance.now() - started;
    });
    const match = /^\/interaction\/([^/?]+)(?:\/(login|abort))?(?:\?.*)?$/.exec(req.url ?? '');
    if (match) {
      interaction(req, res, match[1] ?? '', match[2] ?? '').catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
      return;
    }
    provider.callback()(req, res);
  });

  return {
    issuer,
    port,
    busyMs: () => busy,
    setClients(next) {
      clients = next;
      provider = build();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A browser's cookie jar and redirect-following, enough to drive the provider's pages over HTTP. */
export class TestBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  private cookiesFor(url: URL): string {
    const jar = this.jar.get(url.host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  keep(url: URL, setCookie: string[]): void {
    let jar = this.jar.get(url.host);
    if (!jar) {
      jar = new Map();
      this.jar.set(url.host, jar);
    }
    for (const line of setCookie) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0\b/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }

  /**
   * Fetches `url`, following redirects while they stay on `within` (the provider's origin); the
   * first redirect elsewhere (back to the app) is returned as its URL.
   */
  async follow(
    start: string,
    within: string,
    init: { method?: string; form?: Record<string, string> } = {},
  ): Promise<{ url: string; html?: string }> {
    let url = new URL(start);
    let method = init.method ?? 'GET';
    let body: string | undefined = init.form ? new URLSearchParams(init.form).toString() : undefined;
    for (let hop = 0; hop < 20; hop++) {
      if (url.origin !== new URL(within).origin) return { url: url.href };
      const res = await fetch(url, {
        method,
        redirect: 'manual',
        headers: {
          cookie: this.cookiesFor(url),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body ? { body } : {}),
      });
      this.keep(url, res.headers.getSetCookie());
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        url = new URL(location, url);
        method = 'GET';
        body = undefined;
        await res.body?.cancel();
        continue;
      }
      return { url: url.href, html: await res.text() };
    }
    throw new Error('too many redirects');
  }
}
