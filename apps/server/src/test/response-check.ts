import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodType } from 'zod';
import { safeParse } from 'zod/v4/core';

/**
 * Checks, in tests, every answer of a route that declares its responses against the schema it
 * declares for that status (docs/ARCHITECTURE.md#testing): the OpenAPI document is made of the same
 * declarations, so it cannot drift from what the server answers. Production skips the check
 * (plugins/routes.ts serialises without zod); here a body that does not match, or a status the
 * route does not declare, answers 500 and is kept in the returned list, which the test app's
 * `close()` refuses to leave non-empty. Call after `registerDeclaredRoutes`, before the routes.
 */
export function checkDeclaredResponses(app: FastifyInstance): string[] {
  const mismatches: string[] = [];
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => (data) => {
    const result = safeParse(schema as ZodType, data);
    if (!result.success) {
      const issues = result.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
      const mismatch = `${method} ${url} ${httpStatus}: ${issues.join('; ')}`;
      mismatches.push(mismatch);
      throw new Error(`the answer does not match its declared schema: ${mismatch}`);
    }
    return JSON.stringify(data);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const responses = (request.routeOptions.schema as FastifySchema | undefined)?.response;
    if (!responses || request.method === 'HEAD') return payload;
    const status = String(reply.statusCode);
    if (status in (responses as Record<string, unknown>)) return payload;
    const mismatch = `${request.method} ${request.routeOptions.url} answered ${status}, which it does not declare`;
    mismatches.push(mismatch);
    reply.code(500);
    return JSON.stringify({ error: { status: 500, code: 'INTERNAL', message: mismatch } });
  });
  return mismatches;
}

/** Throws, listing them, when any answer did not match: for a test app's `close()`. */
export function failOnMismatches(mismatches: readonly string[]): void {
  if (mismatches.length > 0) {
    throw new Error(`answers that do not match their declared schemas:\n${mismatches.join('\n')}`);
  }
}
