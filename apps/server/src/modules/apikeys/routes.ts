import {
  ApiKeyCreatedSchema,
  ApiKeyCreateSchema,
  ApiKeyListQuerySchema,
  ApiKeySchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendPage } from '../../lib/paging.ts';
import { errorResponses, IdParams, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

/**
 * Personal API keys (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api), mounted at /api/v1. Signed-in people only: a key cannot mint or
 * revoke keys, so a leaked key cannot entrench itself.
 */
export async function apiKeysRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.apiKeys;
  // The creation answer holds a secret; no list should sit in a cache either.
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { user } = RouteNeeds;
  const tags = ['api keys'];

  r.get(
    '/api_keys',
    {
      config: user,
      schema: {
        tags,
        summary: 'Your API keys; with scope=domain, every key of your organisation (Admins)',
        querystring: ApiKeyListQuerySchema,
        response: { 200: z.array(ApiKeySchema), ...errorResponses('BAD_REQUEST') },
      },
    },
    async (request, reply) => sendPage(reply, await service.list(request.caller, request.query)),
  );

  r.post(
    '/api_keys',
    {
      config: user,
      schema: {
        tags,
        summary: 'Create an API key; its secret is in this answer and never again',
        body: ApiKeyCreateSchema,
        response: { 201: ApiKeyCreatedSchema, ...errorResponses('CONFLICT') },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.caller, request.body, auditMeta(request))),
  );

  r.delete(
    '/api_keys/:id',
    {
      config: user,
      schema: {
        tags,
        summary: 'Revoke an API key (yours, or as an Admin one of your organisation’s): it stops at once',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.revoke(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );
}
