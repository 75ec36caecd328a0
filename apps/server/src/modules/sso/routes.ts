import { SsoProviderCreateSchema, SsoProviderSchema, SsoProviderUpdateSchema } from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { errorResponses, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

const IdParams = z.object({ id: z.string().min(1).max(100) });

/** Single sign-on providers (docs/ARCHITECTURE.md#single-sign-on), SuperAdmins only. Mounted at /api/v1/integration/sso. */
export async function ssoAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.sso;
  app.addHook('onSend', noStore);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const { superAdmin } = RouteNeeds;
  const tags = ['sso'];

  r.get(
    '/',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Identity providers for single sign-on (client secrets never shown)',
        response: { 200: z.array(SsoProviderSchema) },
      },
    },
    async (request) => service.list(request.caller),
  );

  r.post(
    '/',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Add an OpenID Connect provider',
        body: SsoProviderCreateSchema,
        response: { 201: SsoProviderSchema, ...errorResponses('CONFLICT') },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.caller, request.body, auditMeta(request))),
  );

  r.put(
    '/:id',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Change a provider (an empty or absent client secret keeps the stored one)',
        params: IdParams,
        body: SsoProviderUpdateSchema,
        response: { 200: SsoProviderSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.update(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  r.delete(
    '/:id',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Remove a provider (its users keep their accounts)',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.remove(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );
}
