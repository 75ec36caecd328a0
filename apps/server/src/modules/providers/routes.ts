import {
  AiSettingsUpdateSchema,
  ProviderConfigCreateSchema,
  ProviderConfigUpdateSchema,
} from '@assistente/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { auditMeta } from '../audit/index.ts';
import { closeProvidersService, providersService } from './service.ts';

const IdParams = z.object({ id: z.string().min(1).max(100) });

/** `?domain=` picks another domain for a SuperAdmin; it is also the web's logging hint, read leniently. */
function domainParam(request: FastifyRequest): string | undefined {
  const raw = (request.query as Record<string, unknown> | undefined)?.domain;
  return typeof raw === 'string' && raw !== '' ? raw : undefined;
}

/**
 * AI provider settings (Admin+ of the domain; SuperAdmin any via `?domain=`) and the model list
 * every signed-in user sees. Mounted at /api/v1.
 */
export async function providersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = providersService(ctx);
  app.addHook('onClose', async () => closeProvidersService(ctx));
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  app.get('/models', async (request) => {
    const caller = await request.caller();
    return service.models(caller);
  });

  app.get('/settings/providers', async (request) => {
    const caller = await request.caller();
    return service.list(caller, domainParam(request));
  });

  app.post('/settings/providers', async (request, reply) => {
    const caller = await request.caller();
    const body = ProviderConfigCreateSchema.parse(request.body);
    return reply
      .status(201)
      .send(await service.create(caller, body, auditMeta(request), domainParam(request)));
  });

  app.put('/settings/providers/:id', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    const body = ProviderConfigUpdateSchema.parse(request.body);
    return service.update(caller, id, body, auditMeta(request), domainParam(request));
  });

  app.delete('/settings/providers/:id', async (request, reply) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    await service.remove(caller, id, auditMeta(request), domainParam(request));
    return reply.status(204).send();
  });

  app.post('/settings/providers/:id/test', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    return service.test(caller, id, domainParam(request));
  });

  app.get('/settings/ai', async (request) => {
    const caller = await request.caller();
    return service.getAiSettings(caller, domainParam(request));
  });

  app.put('/settings/ai', async (request) => {
    const caller = await request.caller();
    const body = AiSettingsUpdateSchema.parse(request.body);
    return service.putAiSettings(caller, body, auditMeta(request), domainParam(request));
  });
}
