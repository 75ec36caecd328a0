import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStandalonePage, matchWebRoute, type RuntimeConfig } from '@assistente/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import { appOrigin } from '../lib/origin.ts';
import { identityToolkitBody } from './errors.ts';
import { isServicePath, securityHeaders } from './security.ts';

const BOT_RE = /bot|crawl|spider|slurp|facebookexternalhit|embedly|preview/i;

/** The runtime config for a page opened at `base` (PUBLIC_URL, or the address the browser used). */
export function runtimeConfig(ctx: AppContext, buildId: string, base: string): RuntimeConfig {
  return {
    appUrl: base,
    projectId: ctx.config.PROJECT_ID,
    chatsManagerUrl: base,
    accountManagerUrl: base,
    codeAssistUrl: base,
    agentsWsUrl: `${base.replace(/^http/, 'ws')}/api/v1/agents/chat/`,
    identity: {
      apiKey: 'assistente-local',
      authDomain: new URL(base).host,
      projectId: ctx.config.PROJECT_ID,
      baseUrl: `${base}/identity`,
    },
    storageBucket: `${ctx.config.PROJECT_ID}-chats`,
    editorDeepLink: ctx.config.EDITOR_DEEP_LINK,
    editorCallbackOrigins: ctx.config.EDITOR_CALLBACK_ORIGINS,
    uploadMaxBytes: ctx.config.UPLOAD_MAX_BYTES,
    buildId,
  };
}

/** apps/web/dist, from this module in apps/server/src/plugins or compiled into apps/server/dist. */
function defaultWebDist(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.resolve(dir, '../web/dist');
}

/** Serves the built web app, /runtime-config.json, the trailing-slash 308 and real 404s. */
export async function registerWeb(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const dist = holdBuild(ctx.config.WEB_DIST ?? defaultWebDist());
  const indexPath = path.join(dist, 'index.html');
  const hasDist = existsSync(indexPath);
  const notBuilt =
    '<!doctype html><html><head><meta charset="utf-8"><title>Assistente</title></head><body><p>The web app is not built: run <code>npm run build</code>.</p></body></html>';
  const shell = hasDist ? readFileSync(indexPath, 'utf8') : notBuilt;
  // The embedded chat's page (docs/ARCHITECTURE.md#embedded-chat) is a build of its own beside the app's: the app has no
  // embedded pages. A build from before it had none either: then there is no page to serve.
  const embeddedPath = path.join(dist, 'embedded.html');
  const embeddedShell = existsSync(embeddedPath) ? readFileSync(embeddedPath, 'utf8') : notBuilt;
  const buildMetaPath = path.join(dist, 'builds', 'latest.json');
  const buildId = existsSync(buildMetaPath)
    ? (JSON.parse(readFileSync(buildMetaPath, 'utf8')) as { id: string }).id
    : 'dev';

  // Callback-style: it runs before every request, API calls included.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') {
      const [pathname, query] = splitUrl(request.url);
      if (pathname !== '/' && pathname.endsWith('/') && !isServicePath(pathname)) {
        const target = (pathname.replace(/\/+$/, '') || '/') + (query ? `?${query}` : '');
        reply.redirect(target, 308);
        return;
      }
    }
    done();
  });

  app.get('/runtime-config.json', async (request, reply) => {
    reply.header('cache-control', 'no-cache');
    // Without PUBLIC_URL the service URLs follow the address the page was opened at.
    if (!ctx.config.PUBLIC_URL) reply.header('vary', 'host');
    return runtimeConfig(ctx, buildId, appOrigin(ctx.config, request));
  });

  // The handoff page offers the editor extension when the editor does not answer (not installed yet).
  app.get('/downloads/assistente-vscode.vsix', async (_request, reply) => {
    const file = ctx.config.EDITOR_VSIX ?? newestVsix(path.resolve(defaultWebDist(), '../../vscode'));
    if (!file || !existsSync(file))
      throw new AppError('NOT_FOUND', 'The editor extension is not available here');
    return reply
      .type('application/vsix')
      .header('content-disposition', `attachment; filename="${path.basename(file).replace(/[^\w.-]/g, '_')}"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-cache')
      .send(createReadStream(file));
  });

  if (hasDist) {
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      // The build has no dotfiles; `.in-use` marks are ours.
      dotfiles: 'deny',
      cacheControl: false,
      setHeaders(reply, filePath) {
        // Hashed file names under assets/ never change; everything else must be revalidated.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The launcher script (docs/ARCHITECTURE.md#embedded-chat) runs on other sites: they must be able to load it.
        if (filePath === path.join(dist, 'embed.js'))
          reply.header('cross-origin-resource-policy', 'cross-origin');
      },
    });
  }

  const sendShell = (reply: FastifyReply, status: number, html = shell) =>
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);

  const baseCsp =
    securityHeaders(ctx.config.publicUrl)['content-security-policy'] ?? "frame-ancestors 'none'";
  /**
   * An embed's pages may be framed by its allowed sites only (`'none'` when it has none), and an
   * unknown or paused embed's pages are not there at all.
   */
  async function sendEmbeddedPage(request: FastifyRequest, reply: FastifyReply, id: string) {
    const embed = await ctx.services.visitors.usableEmbed(id);
    if (!embed) {
      if (BOT_RE.test(request.headers['user-agent'] ?? '')) {
        return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
      }
      // The embedded page without the embed's origins: it shows its 404 (not the app's shell, which
      // would offer a visitor the sign-in page).
      return sendShell(reply, 404, embeddedShell);
    }
    const ancestors = embed.allowedOrigins.length ? embed.allowedOrigins.join(' ') : "'none'";
    reply.header(
      'content-security-policy',
      baseCsp.replace("frame-ancestors 'none'", `frame-ancestors ${ancestors}`),
    );
    // X-Frame-Options has no allow-list; browsers that know frame-ancestors ignore it anyway.
    reply.removeHeader('x-frame-options');
    return sendShell(reply, 200, withEmbedOrigins(embeddedShell, embed.allowedOrigins));
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const [pathname] = splitUrl(request.url);
    if (isServicePath(pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      const err = new AppError('NOT_FOUND', `Route ${request.method} ${pathname} not found`);
      // Under /identity every answer is in Identity Toolkit's envelope (docs/ARCHITECTURE.md#error-model), a missing route's too.
      if (pathname.startsWith('/identity/'))
        return reply.status(404).send(identityToolkitBody(404, err.message));
      return reply.status(404).send(err.toBody());
    }
    const route = matchWebRoute(pathname);
    if (route?.layout === 'embedded') {
      const raw = /\/embedded\/([^/]+)\//.exec(pathname)?.[1] ?? '';
      let id = '';
      try {
        id = decodeURIComponent(raw);
      } catch {
        // A malformed escape names no embed: the 404 below.
      }
      return sendEmbeddedPage(request, reply, id);
    }
    if (route || isStandalonePage(pathname)) return sendShell(reply, 200);
    if (BOT_RE.test(request.headers['user-agent'] ?? '')) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    return sendShell(reply, 404);
  });
}

/**
 * The build this process serves: `dist` resolved once (scripts/build-web.mjs swaps a link to each
 * new build), marked with our pid so a later build keeps it while we run. A rebuild beside a
 * running server must not take away the files its pages refer to.
 */
function holdBuild(dist: string): string {
  if (!existsSync(dist)) return dist;
  const real = realpathSync(dist);
  const mark = path.join(real, '.in-use', String(process.pid));
  try {
    mkdirSync(path.dirname(mark), { recursive: true });
    writeFileSync(mark, '');
    process.once('exit', () => rmSync(mark, { force: true }));
  } catch {
    // A read-only build (an image layer) is never pruned anyway.
  }
  return real;
}

/** The highest-versioned `assistente-vscode-<version>.vsix` that `npm run package -w apps/vscode` left in `dir`. */
function newestVsix(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const [newest] = readdirSync(dir)
    .filter((f) => /^assistente-vscode-[\d.]+\.vsix$/.test(f))
    .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  return newest ? path.join(dir, newest) : undefined;
}

function splitUrl(url: string): [string, string] {
  const i = url.indexOf('?');
  return i === -1 ? [url, ''] : [url.slice(0, i), url.slice(i + 1)];
}

/**
 * The embed's allowed sites, in the page itself: the iframe takes postMessage from these origins
 * only, and must know them before it has a session (a meta tag, as the CSP allows no inline script).
 */
function withEmbedOrigins(html: string, origins: readonly string[]): string {
  const content = JSON.stringify(origins)
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;');
  const meta = `<meta name="assistente-embed-origins" content="${content}">`;
  const head = /<head[^>]*>/i.exec(html);
  if (head) return html.replace(head[0], `${head[0]}${meta}`);
  return html.replace(/<title>/i, `${meta}<title>`);
}
