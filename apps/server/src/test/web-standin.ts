// The web, on loopback, for the built-in tools' tests and e2e: a SearXNG instance (its JSON API),
// Brave's and Tavily's search APIs, and a few pages — articles, a redirect to the cloud metadata
// address, a page too long to read whole, an image. Real HTTP over a real socket.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebStandin {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** The SearXNG instance's base address (`{origin}/searxng`). */
  searxngUrl: string;
  /** What the search endpoints were asked, in order. */
  searches: Array<{ provider: 'searxng' | 'brave' | 'tavily'; query: string; key: string | null }>;
  /** Paths of the pages asked for, in order. */
  pages: string[];
  /** The key Brave and Tavily accept. */
  apiKey: string;
  close(): Promise<void>;
}

/** An article page: a title, navigation and a footer around the text Readability keeps. */
export function articlePage(title: string, paragraphs: readonly string[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><nav><a href="/">Home</a> · <a href="/about">About us</a> · <a href="/shop">Shop</a></nav>
<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
<p>More in <a href="/pages/related">the related article</a>.</p></article></main>
<footer>© Example Ltd · Cookie settings · Newsletter</footer></body></html>`;
}

const FILLER =
  'The study followed four hundred households over three winters and measured how much heat each kind of wall kept in. ';

export const PAGES: Record<string, { title: string; paragraphs: string[] }> = {
  '/pages/heat-pumps': {
    title: 'Heat pumps in cold climates',
    paragraphs: [
      'Modern air-source heat pumps keep a coefficient of performance above 2 down to minus 15 degrees Celsius.',
      FILLER.repeat(4),
    ],
  },
  '/pages/insulation': {
    title: 'Insulation first',
    paragraphs: [
      'Insulating the loft cuts heat loss by a quarter before any heating system is changed.',
      FILLER.repeat(4),
    ],
  },
};

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startWebStandin(): Promise<WebStandin> {
  const apiKey = 'search-key-123';
  const searches: WebStandin['searches'] = [];
  const pages: string[] = [];
  let origin = '';
  const results = () =>
    Object.entries(PAGES).map(([path, p]) => ({
      title: p.title,
      url: `${origin}${path}`,
      snippet: `<strong>${p.title}</strong>: ${p.paragraphs[0]?.slice(0, 80)}…`,
    }));

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/searxng/search') {
      // SearXNG answers JSON only when its settings allow the format, and 403 otherwise.
      if (url.searchParams.get('format') !== 'json') return json(403, { error: 'format not allowed' });
      const query = url.searchParams.get('q') ?? '';
      searches.push({ provider: 'searxng', query, key: null });
      return json(200, {
        query,
        number_of_results: 2,
        results: results().map((r) => ({
          title: r.title,
          url: r.url,
          content: r.snippet,
          engine: 'standin',
        })),
      });
    }
    if (url.pathname === '/brave/res/v1/web/search') {
      const key = (req.headers['x-subscription-token'] as string | undefined) ?? null;
      searches.push({ provider: 'brave', query: url.searchParams.get('q') ?? '', key });
      if (key !== apiKey)
        return json(401, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID' } });
      return json(200, {
        type: 'search',
        web: {
          type: 'search',
          results: results().map((r) => ({ title: r.title, url: r.url, description: r.snippet })),
        },
      });
    }
    if (url.pathname === '/tavily/search' && req.method === 'POST') {
      const body = JSON.parse((await bodyOf(req)) || '{}') as { query?: string };
      const key = req.headers.authorization?.replace(/^Bearer /, '') ?? null;
      searches.push({ provider: 'tavily', query: body.query ?? '', key });
      if (key !== apiKey)
        return json(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
      return json(200, {
        query: body.query,
        results: results().map((r) => ({ title: r.title, url: r.url, content: r.snippet, score: 0.9 })),
      });
    }
    pages.push(url.pathname);
    const page = PAGES[url.pathname];
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(articlePage(page.title, page.paragraphs));
    }
    if (url.pathname === '/pages/large') {
      // A long article (about 900 KB of HTML), as a long report or a documentation page is.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const sections = Array.from(
        { length: 600 },
        (_, i) =>
          `<h2>Section ${i}</h2><p>${FILLER.repeat(10)}</p><ul><li><a href="/s/${i}">More on ${i}</a></li></ul>`,
      );
      return res.end(articlePage('A long report', sections));
    }
    if (url.pathname === '/pages/moved') {
      res.writeHead(301, { location: '/pages/heat-pumps' });
      return res.end();
    }
    if (url.pathname === '/pages/to-metadata') {
      // Where a cloud VM's credentials live: a page that sends the reader there is refused.
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    if (url.pathname === '/pages/long') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      const line = `${'word '.repeat(199)}end\n`;
      for (let i = 0; i < 3_000; i++) res.write(line);
      return res.end();
    }
    if (url.pathname === '/pages/image.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(Buffer.from('89504e470d0a1a0a', 'hex'));
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    searxngUrl: `${origin}/searxng`,
    searches,
    pages,
    apiKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
