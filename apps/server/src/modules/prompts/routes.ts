import {
  PromptCreateSchema,
  PromptListQuerySchema,
  PromptSchema,
  PromptUpdateSchema,
  PromptVersionSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendPage } from '../../lib/paging.ts';
import { errorResponses, IdParams, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

const VersionParams = IdParams.extend({ version: z.coerce.number().int().min(1).max(1_000_000_000) });

/**
 * The prompt library (docs/ARCHITECTURE.md#prompt-library), mounted at /api/v1/prompts. Signed-in
 * people only: no visitor of an embed, no API key. What the caller sees and may change is the
 * service's (its policy), and another domain's prompt is a 404 like a missing one.
 */
export async function promptsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.prompts;
  // Each list is the caller's own view of the library.
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['prompts'];
  const config = RouteNeeds.user;

  r.get(
    '/',
    {
      config,
      schema: {
        tags,
        summary: 'The prompts you see: your private ones, your department’s, your domain’s',
        description:
          'Ordered by scope (private, department, domain) then title; `q` matches title or command, ignoring case and accents. Paged with `X-Next-Cursor`.',
        querystring: PromptListQuerySchema,
        response: { 200: z.array(PromptSchema), ...errorResponses('BAD_REQUEST') },
      },
    },
    async (request, reply) => sendPage(reply, await service.list(request.caller, request.query)),
  );

  r.post(
    '/',
    {
      config,
      schema: {
        tags,
        summary: 'Write a prompt (private: anyone; department: Editor+, for your own; domain: Admin+)',
        body: PromptCreateSchema,
        response: { 201: PromptSchema, ...errorResponses('CONFLICT') },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.caller, request.body, auditMeta(request))),
  );

  r.get(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One prompt you see',
        params: IdParams,
        response: { 200: PromptSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.get(request.caller, request.params.id),
  );

  r.put(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a prompt, as its next version (nothing changed: no new version)',
        params: IdParams,
        body: PromptUpdateSchema,
        response: { 200: PromptSchema, ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request) => service.update(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  r.delete(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a prompt and all its versions',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.remove(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/:id/versions',
    {
      config,
      schema: {
        tags,
        summary: 'The kept versions of a prompt, newest first (the current one included)',
        params: IdParams,
        response: { 200: z.array(PromptVersionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.versions(request.caller, request.params.id),
  );

  r.post(
    '/:id/versions/:version/restore',
    {
      config,
      schema: {
        tags,
        summary: 'Roll back: a new version whose fields are those of an older one',
        params: VersionParams,
        response: { 200: PromptSchema, ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request) =>
      service.restore(request.caller, request.params.id, request.params.version, auditMeta(request)),
  );
}
