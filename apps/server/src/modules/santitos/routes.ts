import {
  SantitoCreateSchema,
  SantitoLimits,
  SantitoListQuerySchema,
  SantitoUpdateSchema,
} from '@assistente/contracts';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { closeStorage, readSingleUpload, sendStoredObject } from '../storage/index.ts';
import { santitosService } from './service.ts';

const IdParams = z.object({ id: z.string().min(1).max(100) });

/** Santitos (DESIGN §7), mounted at /api/v1/agent; premium only (404 for everyone else). */
export async function santitosRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = santitosService(ctx);
  const avatarMax = Math.min(SantitoLimits.avatarMaxBytes, ctx.config.UPLOAD_MAX_BYTES);
  await app.register(multipart, { limits: { fileSize: avatarMax, files: 1, fields: 10, parts: 12 } });

  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  app.addHook('onClose', async () => closeStorage(ctx));

  app.get('/', async (request, reply) => {
    const caller = await request.caller();
    const query = SantitoListQuerySchema.parse(request.query);
    const page = await service.list(caller, query);
    reply.header('x-total-count', String(page.total));
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
    return page.items;
  });

  app.post('/', async (request, reply) => {
    const caller = await request.caller();
    const body = SantitoCreateSchema.parse(request.body);
    return reply.status(201).send(await service.create(caller, body));
  });

  app.get('/:id', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    return service.get(caller, id);
  });

  app.put('/:id', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    const body = SantitoUpdateSchema.parse(request.body);
    return service.update(caller, id, body);
  });

  app.delete('/:id', async (request, reply) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    await service.remove(caller, id);
    return reply.status(204).send();
  });

  app.post('/:id/avatar', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    await service.checkAvatarUpload(caller, id);
    const file = await readSingleUpload(request, avatarMax);
    return service.setAvatarImage(caller, id, file);
  });

  app.get('/:id/avatar', async (request, reply) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    const { object, fileName } = await service.openAvatar(caller, id);
    return sendStoredObject(reply, object, fileName);
  });
}
