import {
  SantitoCreateSchema,
  SantitoLimits,
  SantitoListQuerySchema,
  SantitoSchema,
  SantitoUpdateSchema,
} from '@assistente/contracts';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendPage } from '../../lib/paging.ts';
import { BinaryBody, errorResponses, IdParams, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';
import { receiveUpload, sendStoredObject, UPLOAD_ERRORS } from '../storage/index.ts';

/** Santitos (docs/ARCHITECTURE.md#organisations-domains-departments-premium), mounted at /api/v1/agent; premium only (404 for everyone else). */
export async function santitosRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.santitos;
  const avatarMax = Math.min(SantitoLimits.avatarMaxBytes, ctx.config.UPLOAD_MAX_BYTES);
  await app.register(multipart, { limits: { fileSize: avatarMax, files: 1, fields: 10, parts: 12 } });

  app.addHook('onSend', noStore);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const { user } = RouteNeeds;
  const tags = ['santitos'];

  r.get(
    '/',
    {
      config: user,
      schema: {
        tags,
        summary: 'Santitos the caller may use or edit (premium domains)',
        querystring: SantitoListQuerySchema,
        response: { 200: z.array(SantitoSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => sendPage(reply, await service.list(request.caller, request.query)),
  );

  r.post(
    '/',
    {
      config: user,
      schema: {
        tags,
        summary: 'Create a santito',
        body: SantitoCreateSchema,
        response: { 201: SantitoSchema, ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.caller, request.body, auditMeta(request))),
  );

  r.get(
    '/:id',
    {
      config: user,
      schema: {
        tags,
        summary: 'One santito',
        params: IdParams,
        response: { 200: SantitoSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.get(request.caller, request.params.id),
  );

  r.put(
    '/:id',
    {
      config: user,
      schema: {
        tags,
        summary: 'Change a santito (author or Admin)',
        params: IdParams,
        body: SantitoUpdateSchema,
        response: { 200: SantitoSchema, ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request) => service.update(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  r.delete(
    '/:id',
    {
      config: user,
      schema: {
        tags,
        summary: 'Delete a santito (author or Admin)',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.remove(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/:id/avatar',
    {
      config: user,
      schema: {
        tags,
        summary: 'Upload an avatar image (multipart, one file)',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: {
          200: SantitoSchema,
          ...errorResponses('NOT_FOUND', ...UPLOAD_ERRORS),
        },
      },
    },
    async (request) => {
      const caller = request.caller;
      await service.checkAvatarUpload(caller, request.params.id);
      return receiveUpload(ctx, request, { domainId: caller.domain.id, maxBytes: avatarMax }, (file) =>
        service.setAvatarImage(caller, request.params.id, file),
      );
    },
  );

  r.get(
    '/:id/avatar',
    {
      config: user,
      schema: {
        tags,
        summary: 'The uploaded avatar image',
        params: IdParams,
        response: { 200: BinaryBody, ...errorResponses('NOT_FOUND', 'STORAGE_UNAVAILABLE') },
      },
    },
    async (request, reply) => {
      const { object, fileName } = await service.openAvatar(request.caller, request.params.id);
      return sendStoredObject(reply, object, fileName);
    },
  );
}
