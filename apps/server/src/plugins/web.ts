import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { matchWebRoute, type RuntimeConfig } from '@assistente/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';

const BOT_RE = /bot|crawl|spider|slurp|facebookexternalhit|embedly|preview/i;
/** Paths that belong to services, never to the web app: no trailing-slash redirect, JSON 404s. */
const API_PREFIXES = [
  '/api/',
  '/identity/',
  '/identitytoolkit.googleapis.com/',
  '/securetoken.googleapis.com/',
];
const isApiPath = (p: string) => API_PREFIXES.some((prefix) => p.startsWith(prefix));

export function runtimeConfig(ctx: AppContext, buildId: string): RuntimeConfig {
  const base = ctx.config.publicUrl;
  return {
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
    buildId,
  };
}

export function defaultWebDist(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
}

/** Serves the built web app, /runtime-config.json, the trailing-slash 308 and real 404s. */
export async function registerWeb(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const dist = ctx.config.WEB_DIST ?? defaultWebDist();
  const indexPath = path.join(dist, 'index.html');
  const hasDist = existsSync(indexPath);
  const shell = hasDist
    ? readFileSync(indexPath, 'utf8')
    : '<!doctype html><html><head><meta charset="utf-8"><title>Assistente</title></head><body><p>The web app is not built: run <code>npm run build</code>.</p></body></html>';
  const buildMetaPath = path.join(dist, 'builds', 'latest.json');
  const buildId = existsSync(buildMetaPath)
    ? (JSON.parse(readFileSync(buildMetaPath, 'utf8')) as { id: string }).id
    : 'dev';
  const config = runtimeConfig(ctx, buildId);

  app.addHook('onRequest', async (request, reply) => {
    const [pathname, query] = splitUrl(request.url);
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      pathname !== '/' &&
      pathname.endsWith('/') &&
      !isApiPath(pathname)
    ) {
      const target = (pathname.replace(/\/+$/, '') || '/') + (query ? `?${query}` : '');
      return reply.redirect(target, 308);
    }
  });

  app.get('/runtime-config.json', async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return config;
  });

  if (hasDist) {
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      cacheControl: false,
      setHeaders(reply, filePath) {
        // Hashed file names under assets/ never change; everything else must be revalidated.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendShell = (reply: FastifyReply, status: number) =>
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(shell);

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const [pathname] = splitUrl(request.url);
    if (isApiPath(pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      const err = new AppError('NOT_FOUND', `Route ${request.method} ${pathname} not found`);
      return reply.status(404).send(err.toBody());
    }
    if (matchWebRoute(pathname)) return sendShell(reply, 200);
    if (BOT_RE.test(request.headers['user-agent'] ?? '')) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    return sendShell(reply, 404);
  });
}

function splitUrl(url: string): [string, string] {
  const i = url.indexOf('?');
  return i === -1 ? [url, ''] : [url.slice(0, i), url.slice(i + 1)];
}
