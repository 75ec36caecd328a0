import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { notFound, unauthenticated } from '../lib/errors.ts';
import type { Metrics } from '../lib/metrics.ts';

/**
 * Times every HTTP answer by method, route pattern and status (docs/ARCHITECTURE.md#metrics).
 * Added before any route, so every route has it; the pattern, never the URL, names the route.
 */
export function measureRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** SHA-256 first, so the comparison takes the same time whatever the lengths. */
const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * `GET /metrics` for Prometheus: 404 when `METRICS_TOKEN` is unset (no figures without a token
 * chosen), 401 for any other bearer than that token, compared in constant time.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  ctx: Pick<AppContext, 'config' | 'metrics'>,
): void {
  const token = ctx.config.METRICS_TOKEN;
  const expected = token ? digest(token) : undefined;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!expected) throw notFound();
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!timingSafeEqual(digest(given), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthenticated('A bearer token for the metrics is required');
    }
    return reply
      .header('content-type', ctx.metrics.contentType)
      .header('cache-control', 'no-store')
      .send(await ctx.metrics.scrape());
  });
}
