// A local Confluence Cloud speaking the REST API v2 over a real socket, for the knowledge tests:
// spaces by key, a space's pages, pages by id (`GET /pages?id=…`), storage-format bodies when
// asked for, cursor paging through `_links.next`, Basic auth (401 otherwise), and 429 with
// Retry-After on demand. Plain node:http only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface StandinPage {
  id: string;
  title: string;
  version: number;
  body: string;
}

export interface ConfluenceStandin {
  /** `http://127.0.0.1:<port>` (the site; the API is under /wiki/api/v2). */
  url: string;
  port: number;
  email: string;
  token: string;
  /** Paths (with query) of every API request, in order. */
  readonly requests: string[];
  addSpace(key: string, name: string): string;
  /** Adds or replaces a page (a replaced page gets the next version). */
  putPage(spaceKey: string, page: Omit<StandinPage, 'version'> & { version?: number }): StandinPage;
  deletePage(spaceKey: string, id: string): void;
  /** The next `n` API requests answer 429 with `Retry-After: seconds`. */
  rateLimitNext(n: number, seconds: number): void;
  /** Accepts only this token from now on (the old one gets 401). */
  rotateToken(token: string): void;
  /** Most results one API page holds, whatever `limit` asks (forces cursor paging). */
  setMaxPageSize(n: number): void;
  /**
   * Answers carrying page bodies wait this long first (a real site takes its time rendering
   * them): a sync lasts long enough to be watched midway.
   */
  setBodyDelay(ms: number): void;
  /** Called with each API request's path (and query) before it is answered; null to stop. */
  onRequest(listener: ((path: string) => void) | null): void;
  close(): Promise<void>;
}

interface Space {
  id: string;
  key: string;
  name: string;
  pages: Map<string, StandinPage>;
}

export async function startConfluenceStandin(
  opts: { email?: string; token?: string } = {},
): Promise<ConfluenceStandin> {
  const email = opts.email ?? 'bot@acme.example';
  let token = opts.token ?? 'standin-token-123';
  const spaces = new Map<string, Space>();
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let limited = 0;
  let retryAfter = 1;
  let maxPageSize = 250;
  let bodyDelayMs = 0;
  let listener: ((path: string) => void) | null = null;
  let nextId = 1000;

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  /** One page of `items` from `cursor` (an opaque offset), with `_links.next` when more follow. */
  function paged<T>(items: T[], url: URL): { results: T[]; _links: { next?: string; base: string } } {
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 25) || 25, maxPageSize);
    const cursor = url.searchParams.get('cursor');
    const offset = cursor ? Number(Buffer.from(cursor, 'base64url').toString()) : 0;
    const results = items.slice(offset, offset + limit);
    const links: { next?: string; base: string } = { base: `${site}/wiki` };
    if (offset + limit < items.length) {
      const next = new URL(url);
      next.searchParams.set('cursor', Buffer.from(String(offset + limit)).toString('base64url'));
      links.next = `${next.pathname}${next.search}`;
    }
    return { results, _links: links };
  }

  /** A page as the API answers it; its body only when `body-format=storage` was asked for. */
  const pageJson = (space: Space, p: StandinPage, withBody: boolean) => ({
    id: p.id,
    status: 'current',
    title: p.title,
    spaceId: space.id,
    version: { number: p.version, createdAt: new Date().toISOString() },
    ...(withBody ? { body: { storage: { value: p.body, representation: 'storage' } } } : {}),
    _links: {
      webui: `/spaces/${space.key}/pages/${p.id}/${encodeURIComponent(p.title).replace(/%20/g, '+')}`,
    },
  });

  function answerPages(res: ServerResponse, url: URL, pages: Array<{ space: Space; page: StandinPage }>) {
    const withBody = url.searchParams.get('body-format') === 'storage';
    const body = paged(
      pages.map(({ space, page }) => pageJson(space, page, withBody)),
      url,
    );
    if (withBody && bodyDelayMs > 0) setTimeout(() => json(res, 200, body), bodyDelayMs);
    else json(res, 200, body);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://standin');
    requests.push(`${url.pathname}${url.search}`);
    listener?.(`${url.pathname}${url.search}`);
    if (limited > 0) {
      limited--;
      json(res, 429, { message: 'Rate limited' }, { 'retry-after': String(retryAfter) });
      return;
    }
    const expected = `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      json(res, 401, { code: 401, message: 'Unauthorized; scope does not match' });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/wiki/api/v2/spaces') {
      const keys = (url.searchParams.get('keys') ?? '').split(',').filter(Boolean);
      const found = [...spaces.values()]
        .filter((s) => keys.length === 0 || keys.includes(s.key))
        .map((s) => ({ id: s.id, key: s.key, name: s.name, type: 'global', status: 'current' }));
      json(res, 200, paged(found, url));
      return;
    }
    // Pages by id across spaces (`id` a comma-separated list of at most 250), in id order.
    if (req.method === 'GET' && url.pathname === '/wiki/api/v2/pages') {
      const ids = (url.searchParams.get('id') ?? '').split(',').filter(Boolean);
      if (ids.length > 250) {
        json(res, 400, { errors: [{ status: 400, code: 'INVALID_REQUEST_PARAMETER', title: 'id' }] });
        return;
      }
      const wanted = new Set(ids);
      const found = [...spaces.values()]
        .flatMap((space) => [...space.pages.values()].map((page) => ({ space, page })))
        .filter(({ page }) => ids.length === 0 || wanted.has(page.id))
        .sort((a, b) => Number(a.page.id) - Number(b.page.id) || a.page.id.localeCompare(b.page.id));
      answerPages(res, url, found);
      return;
    }
    const m = /^\/wiki\/api\/v2\/spaces\/([^/]+)\/pages$/.exec(url.pathname);
    if (req.method === 'GET' && m) {
      const space = [...spaces.values()].find((s) => s.id === decodeURIComponent(m[1] ?? ''));
      if (!space) {
        json(res, 404, { message: 'Space not found' });
        return;
      }
      answerPages(
        res,
        url,
        [...space.pages.values()].map((page) => ({ space, page })),
      );
      return;
    }
    json(res, 404, { message: 'Not found' });
  }

  const server = createServer(handle);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const site = `http://127.0.0.1:${port}`;
  const spaceOf = (key: string) => {
    const s = spaces.get(key);
    if (!s) throw new Error(`no space ${key}`);
    return s;
  };

  return {
    url: site,
    port,
    email,
    get token() {
      return token;
    },
    requests,
    addSpace(key, name) {
      const id = String(nextId++);
      spaces.set(key, { id, key, name, pages: new Map() });
      return id;
    },
    putPage(spaceKey, page) {
      const space = spaceOf(spaceKey);
      const old = space.pages.get(page.id);
      const stored = { ...page, version: page.version ?? (old ? old.version + 1 : 1) };
      space.pages.set(page.id, stored);
      return stored;
    },
    deletePage(spaceKey, id) {
      spaceOf(spaceKey).pages.delete(id);
    },
    rateLimitNext(n, seconds) {
      limited = n;
      retryAfter = seconds;
    },
    rotateToken(t) {
      token = t;
    },
    setMaxPageSize(n) {
      maxPageSize = n;
    },
    setBodyDelay(ms) {
      bodyDelayMs = ms;
    },
    onRequest(l) {
      listener = l;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
