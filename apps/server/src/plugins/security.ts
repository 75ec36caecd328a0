import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import type { AppContext } from '../context.ts';
import { bearerToken, wellFormedToken } from './auth.ts';

/**
 * The subject of a token this server signed (a user's or a visitor's), else undefined. Only a
 * verified subject may pick a bucket: a subject read from an unverified token would let anyone
 * mint a fresh bucket per request. Tokens already seen come from the caches without a signature check.
 */
async function verifiedSubject(identity: AppContext['identity'], token: string): Promise<string | undefined> {
  const cached = identity.peekIdToken(token) ?? identity.peekVisitorToken(token);
  if (cached) return cached.sub;
  // API keys and other non-JWTs: not ours to verify here; they share their address's bucket.
  if (token.split('.').length !== 3 || !wellFormedToken(token)) return undefined;
  const claims =
    (await identity.verifyIdToken(token).catch(() => undefined)) ??
    (await identity.verifyVisitorToken(token).catch(() => undefined));
  return claims?.sub;
}

/** Limit key: the verified caller when the request carries a good token, else the IP. */
function limitKey(ctx: Pick<AppContext, 'identity'>) {
  return async (request: FastifyRequest): Promise<string> => {
    const token = bearerToken(request);
    const sub = token ? await verifiedSubject(ctx.identity, token) : undefined;
    return sub ? `u:${sub}` : `ip:${request.ip}`;
  };
}

const DYNAMIC_PREFIXES = ['/api/', '/identity', '/securetoken.googleapis.com/'];

/** Paths that belong to services, never to the web app. */
const SERVICE_PREFIXES = [
  '/api/',
  '/identity/',
  '/identitytoolkit.googleapis.com/',
  '/securetoken.googleapis.com/',
];
export const isServicePath = (p: string) => SERVICE_PREFIXES.some((prefix) => p.startsWith(prefix));

/** Answers that are data for scripts and clients, never a page (the API's reference page is one). */
const isDataPath = (p: string) => (isServicePath(p) && !p.startsWith('/api/docs')) || p.startsWith('/v1/');

/**
 * The web app's own files and pages (precomputed, cheap) are not rate limited: one page load
 * fetches dozens of them, and a whole organisation behind one NAT address shares the IP bucket.
 */
function isWebRead(request: { method: string; url: string }): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return !DYNAMIC_PREFIXES.some((p) => request.url.startsWith(p));
}

/**
 * The security headers of pages and files, as helmet's defaults with our CSP. Computed once:
 * helmet rebuilds the CSP string on every request, a measurable share of an API call. Routes
 * that need another policy (the embedded pages' frame-ancestors) overwrite the header.
 */
export function securityHeaders(publicUrl: string): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data: blob:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    // Mantine sets style attributes at run time.
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self' ws: wss:",
  ].join(';');
  return {
    ...dataSecurityHeaders(publicUrl),
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

/**
 * The security headers of the services' answers (JSON and files for scripts, OWASP's set for a
 * REST API): a document's policies (opener, agent cluster, prefetch, legacy browsers' switches)
 * would cost every API call for answers no browser renders as a page. A file a browser could
 * open (an attachment) still gets nosniff, no framing and a CSP allowing nothing.
 */
function dataSecurityHeaders(publicUrl: string): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...(publicUrl.startsWith('https://')
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };
}

/**
 * `onSend` of modules whose answers are per caller: a shared cache must never keep them (a route
 * that set its own Cache-Control keeps it). Callback-style: it runs on every answer.
 */
export const noStore: onSendHookHandler = (_request, reply, payload, done) => {
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  done(null, payload);
};

export async function registerSecurity(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const pages = securityHeaders(ctx.config.publicUrl);
  const data = dataSecurityHeaders(ctx.config.publicUrl);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isDataPath(request.url) ? data : pages);
    done();
  });
  if (ctx.config.RATE_LIMITS === 'on') {
    await app.register(rateLimit, {
      global: true,
      max: 1200,
      timeWindow: '1 minute',
      keyGenerator: limitKey(ctx),
      nameSpace: `${ctx.keyPrefix}rl:`,
      // Without Redis for a moment, let requests through rather than answer 500s.
      ...(ctx.redis ? { redis: ctx.redis, skipOnError: true } : {}),
      allowList: (req) => req.url === '/healthz' || req.url === '/readyz' || isWebRead(req),
    });
  }
}
