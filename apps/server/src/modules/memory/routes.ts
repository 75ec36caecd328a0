import {
  MemoryInputSchema,
  MemoryListSchema,
  MemorySchema,
  MemorySettingsSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { domainSettingRoutes } from '../../plugins/domain-setting-routes.ts';
import { errorResponses, IdParams, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

const tags = ['memory'];

/** Whether a domain has memory on (Admin+; SuperAdmin any domain), at /api/v1/settings/memory. */
export async function memorySettingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.memory;
  domainSettingRoutes(app, {
    tags,
    setting: MemorySettingsSchema,
    update: MemorySettingsSchema,
    summaries: {
      get: 'Whether the domain’s people have memory (no setting: off)',
      put: 'Turn memory on or off for the domain',
      putDescription:
        'Off, no chat is given anyone’s memories nor offered the `remember` tool; the memories are kept.',
    },
    read: (caller, domain) => service.getSettings(caller, domain),
    write: (caller, body, request, domain) => service.putSettings(caller, body, auditMeta(request), domain),
  });
}

/** The signed-in person's own memories, at /api/v1/me/memories (visitors and API keys: never). */
export async function myMemoriesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.memory;
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Your memories, newest first, and how many of them your chats are given',
        response: { 200: MemoryListSchema },
      },
    },
    async (request) => service.list(request.caller),
  );

  r.post(
    '/',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Add a memory',
        description: 'Refused (403) while your organisation has memory off, and (409) past the limit.',
        body: MemoryInputSchema,
        response: { 201: MemorySchema, ...errorResponses('CONFLICT') },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.caller, request.body)),
  );

  r.put(
    '/:id',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Change a memory’s text',
        params: IdParams,
        body: MemoryInputSchema,
        response: { 200: MemorySchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.update(request.caller, request.params.id, request.body),
  );

  r.delete(
    '/:id',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Delete a memory',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.remove(request.caller, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
