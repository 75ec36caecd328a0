import {
  ChatCreateSchema,
  ChatExportQuerySchema,
  ChatListQuerySchema,
  ChatUpdateSchema,
  MessageListQuerySchema,
} from '@assistente/contracts';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { localeHints } from '../accounts/locale.ts';
import { providersService } from '../providers/index.ts';
import { closeStorage, contentDisposition, readSingleUpload, sendStoredObject } from '../storage/index.ts';
import { chatsService } from './service.ts';

const ChatParams = z.object({ chatId: z.string().min(1).max(100) });
const AttachmentParams = ChatParams.extend({ attachmentId: z.string().min(1).max(100) });

/** How often deleted chats past their undo window and abandoned drafts are purged. */
const PURGE_EVERY_MS = 60_000;

/** The chats manager, mounted at /api/v1/chats (DESIGN §5): authenticate → validate → service. */
export async function chatsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = chatsService(ctx);
  await app.register(multipart, {
    limits: { fileSize: ctx.config.UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 12, headerPairs: 200 },
  });

  // Chats are per caller: never let a shared cache keep them.
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  // Answers left streaming by a dead process are the agents module's (its stale-answer job).
  const stopJobs = [
    ctx.scheduler.add({
      name: 'chats.purge-deleted',
      everyMs: PURGE_EVERY_MS,
      run: async () => void (await service.purgeDeleted()),
    }),
    ctx.scheduler.add({
      name: 'chats.purge-drafts',
      everyMs: PURGE_EVERY_MS,
      run: async () => void (await service.purgeDrafts()),
    }),
  ];
  app.addHook('onClose', async () => {
    for (const stop of stopJobs) stop();
    closeStorage(ctx);
  });

  app.get('/', async (request, reply) => {
    const caller = await request.caller();
    const query = ChatListQuerySchema.parse(request.query);
    const page = await service.listChats(caller, query);
    reply.header('x-total-count', String(page.total));
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
    return page.items;
  });

  app.post('/', async (request, reply) => {
    const caller = await request.caller();
    const body = ChatCreateSchema.parse(request.body ?? {});
    return reply.status(201).send(await service.createChat(caller, body));
  });

  app.get('/:chatId', async (request) => {
    const caller = await request.caller();
    const { chatId } = ChatParams.parse(request.params);
    return service.getChatForCaller(caller, chatId);
  });

  app.put('/:chatId', async (request) => {
    const caller = await request.caller();
    const { chatId } = ChatParams.parse(request.params);
    const body = ChatUpdateSchema.parse(request.body);
    return service.updateChat(caller, chatId, body);
  });

  app.delete('/:chatId', async (request, reply) => {
    const caller = await request.caller();
    const { chatId } = ChatParams.parse(request.params);
    await service.deleteChat(caller, chatId);
    return reply.status(204).send();
  });

  app.post('/:chatId/restore', async (request) => {
    const caller = await request.caller();
    const { chatId } = ChatParams.parse(request.params);
    return service.restoreChat(caller, chatId);
  });

  app.get('/:chatId/messages', async (request, reply) => {
    const caller = await request.caller();
    const { chatId } = ChatParams.parse(request.params);
    const query = MessageListQuerySchema.parse(request.query);
    const page = await service.listMessages(caller, chatId, query);
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
    return page.items;
  });

  app.get('/:chatId/export', async (request, reply) => {
    const caller = await request.caller();
    const { chatId } = ChatParams.parse(request.params);
    const query = ChatExportQuerySchema.parse(request.query);
    const labels = await providersService(ctx).providerLabels(caller.domain.id);
    const file = await service.exportChat(caller, chatId, query, localeHints(request), labels);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', contentDisposition(file.fileName))
      .header('x-content-type-options', 'nosniff')
      .send(file.body);
  });

  app.post('/:chatId/attachments', async (request, reply) => {
    const caller = await request.caller();
    const { chatId } = ChatParams.parse(request.params);
    // Refuse before reading the body when the chat is not theirs or the domain is out of room.
    await service.checkUpload(caller, chatId);
    const file = await readSingleUpload(request, ctx.config.UPLOAD_MAX_BYTES);
    return reply.status(201).send(await service.uploadAttachment(caller, chatId, file));
  });

  app.get('/:chatId/attachments/:attachmentId', async (request, reply) => {
    const caller = await request.caller();
    const { chatId, attachmentId } = AttachmentParams.parse(request.params);
    const { object, fileName } = await service.openAttachment(caller, chatId, attachmentId);
    return sendStoredObject(reply, object, fileName);
  });

  app.delete('/:chatId/attachments/:attachmentId', async (request, reply) => {
    const caller = await request.caller();
    const { chatId, attachmentId } = AttachmentParams.parse(request.params);
    await service.deleteAttachment(caller, chatId, attachmentId);
    return reply.status(204).send();
  });
}
