import { AuditEntrySchema, AuditQuerySchema } from '@assistente/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendPage } from '../../lib/paging.ts';
import { noStore } from '../../plugins/security.ts';
import type { AuditMeta } from './store.ts';

/** The IP (as the proxy settings see it) and user agent of an administrative request. */
export function auditMeta(request: FastifyRequest): AuditMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua : null };
}

/** GET /api/v1/audit: the audit log, newest first. */
export async function auditRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.audit;
  // Who changed what is per caller: never let a shared cache keep it.
  app.addHook('onSend', noStore);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/audit',
    {
      config: { auth: 'user', role: 'Admin' },
      schema: {
        tags: ['audit'],
        summary: 'The audit log, newest first (Admin: own domain; SuperAdmin: all, or `?domain=`)',
        querystring: AuditQuerySchema,
        response: { 200: z.array(AuditEntrySchema) },
      },
    },
    async (request, reply) => sendPage(reply, await service.list(request.caller, request.query)),
  );
}
