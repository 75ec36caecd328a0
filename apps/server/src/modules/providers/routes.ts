import {
  AiSettingsSchema,
  AiSettingsUpdateSchema,
  ModelAccessSchema,
  ModelListSchema,
  ProviderConfigCreateSchema,
  ProviderConfigSchema,
  ProviderConfigUpdateSchema,
  ProviderSettingsQuerySchema,
  ProviderTestResultSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { errorResponses, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

const IdParams = z.object({ id: z.string().min(1).max(100) });

/**
 * AI provider settings (Admin+ of the domain; SuperAdmin any via `?domain=`) and the model list
 * every signed-in user sees. Mounted at /api/v1.
 */
export async function providersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.providers;
  app.addHook('onSend', noStore);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin } = RouteNeeds;
  const tags = ['providers'];
  const query = ProviderSettingsQuerySchema;

  r.get(
    '/models',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Models the caller’s domain can use, and its default one',
        response: { 200: ModelListSchema },
      },
    },
    async (request) => service.models(request.caller),
  );

  r.get(
    '/settings/providers',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The domain’s provider configurations (API keys never shown)',
        querystring: query,
        response: { 200: z.array(ProviderConfigSchema), ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.list(request.caller, request.query.domain),
  );

  r.post(
    '/settings/providers',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Add a provider configuration',
        querystring: query,
        body: ProviderConfigCreateSchema,
        response: { 201: ProviderConfigSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.create(request.caller, request.body, auditMeta(request), request.query.domain)),
  );

  r.put(
    '/settings/providers/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change a provider configuration (an empty or absent key keeps the stored one)',
        params: IdParams,
        querystring: query,
        body: ProviderConfigUpdateSchema,
        response: { 200: ProviderConfigSchema, ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request) =>
      service.update(
        request.caller,
        request.params.id,
        request.body,
        auditMeta(request),
        request.query.domain,
      ),
  );

  r.delete(
    '/settings/providers/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove a provider configuration (and a default model only it offered)',
        params: IdParams,
        querystring: query,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      await service.remove(caller, request.params.id, auditMeta(request), request.query.domain);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/settings/providers/:id/test',
    {
      config: admin,
      schema: {
        tags,
        summary: 'List the provider’s models with the stored settings, proving the URL and key work',
        params: IdParams,
        querystring: query,
        response: { 200: ProviderTestResultSchema, ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.test(request.caller, request.params.id, request.query.domain),
  );

  r.get(
    '/settings/ai',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The domain’s default model',
        querystring: query,
        response: { 200: AiSettingsSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.getAiSettings(request.caller, request.query.domain),
  );

  r.put(
    '/settings/ai',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Choose the domain’s default model (null falls back to the instance default)',
        querystring: query,
        body: AiSettingsUpdateSchema,
        response: { 200: AiSettingsSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) =>
      service.putAiSettings(request.caller, request.body, auditMeta(request), request.query.domain),
  );

  r.get(
    '/settings/model_access',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Who of the domain may use which model (docs: Model access)',
        querystring: query,
        response: { 200: ModelAccessSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.getModelAccess(request.caller, request.query.domain),
  );

  r.put(
    '/settings/model_access',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Replace the domain’s model access rules (audited)',
        querystring: query,
        body: ModelAccessSchema,
        response: { 200: ModelAccessSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) =>
      service.putModelAccess(request.caller, request.body, auditMeta(request), request.query.domain),
  );
}
