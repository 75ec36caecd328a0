import {
  AttachmentSchema,
  ChatCreateSchema,
  ChatExportQuerySchema,
  ChatExportSchema,
  ChatListQuerySchema,
  ChatSchema,
  ChatUpdateSchema,
  MessageListQuerySchema,
  MessageSchema,
} from '@assistente/contracts';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendPage } from '../../lib/paging.ts';
import { BinaryBody, errorResponses } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { localeHints } from '../accounts/locale.ts';
import { contentDisposition, receiveUpload, sendStoredObject, UPLOAD_ERRORS } from '../storage/index.ts';

/**
 * Not `ChatIdSchema`: an id that is no chat's, UUID or not, answers 404 "Chat not found" like an
 * unknown one, so a stale or mistyped link reads the same as a deleted chat.
 */
const ChatIdParams = z.object({ chatId: z.string().min(1).max(100) });
const AttachmentIdParams = ChatIdParams.extend({ attachmentId: z.string().min(1).max(100) });

/** The chats manager, mounted at /api/v1/chats (docs/ARCHITECTURE.md#chat-message-data-path). */
export async function chatsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.chats;
  await app.register(multipart, {
    limits: { fileSize: ctx.config.UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 12, headerPairs: 200 },
  });

  // Chats are per caller: never let a shared cache keep them.
  app.addHook('onSend', noStore);

  const r = app.withTypeProvider<ZodTypeProvider>();
  // Visitors of an embed (docs/ARCHITECTURE.md#callers) use the chats API too, as the owner of their own chats only.
  const user = { auth: ['user', 'visitor'] } as const;
  const tags = ['chats'];

  r.get(
    '/',
    {
      config: user,
      schema: {
        tags,
        summary: 'The caller’s chats: pinned first, then newest activity first; `q` searches',
        querystring: ChatListQuerySchema,
        response: { 200: z.array(ChatSchema), ...errorResponses('BAD_REQUEST') },
      },
    },
    async (request, reply) => sendPage(reply, await service.listChats(request.caller, request.query)),
  );

  r.post(
    '/',
    {
      config: user,
      schema: {
        tags,
        summary: 'Create a chat',
        // No body at all makes an untitled chat with the default assistant.
        body: ChatCreateSchema.nullish(),
        response: { 201: ChatSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      // A visitor's new chat is admitted and counted against their embed's limits.
      if (caller.kind === 'visitor') await ctx.services.visitors.admitChat(caller, request.ip);
      const chat = await service.createChat(caller, request.body ?? {});
      if (caller.kind === 'visitor')
        await ctx.services.visitors.count(caller.virtualAccount.id, { chats: 1 });
      return reply.status(201).send(chat);
    },
  );

  r.get(
    '/:chatId',
    {
      config: user,
      schema: {
        tags,
        summary: 'One chat',
        params: ChatIdParams,
        response: { 200: ChatSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.getChatForCaller(request.caller, request.params.chatId),
  );

  r.put(
    '/:chatId',
    {
      config: user,
      schema: {
        tags,
        summary: 'Rename, pin or set the parameters of a chat',
        params: ChatIdParams,
        body: ChatUpdateSchema,
        response: { 200: ChatSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.updateChat(request.caller, request.params.chatId, request.body),
  );

  r.delete(
    '/:chatId',
    {
      config: user,
      schema: {
        tags,
        summary: 'Delete a chat (restorable for a short while)',
        params: ChatIdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.deleteChat(request.caller, request.params.chatId);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/:chatId/restore',
    {
      config: user,
      schema: {
        tags,
        summary: 'Undo a delete within its window',
        params: ChatIdParams,
        response: { 200: ChatSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.restoreChat(request.caller, request.params.chatId),
  );

  r.get(
    '/:chatId/messages',
    {
      config: user,
      schema: {
        tags,
        summary: 'A page of a chat’s messages, oldest → newest; `X-Next-Cursor` is the older page’s `before`',
        params: ChatIdParams,
        querystring: MessageListQuerySchema,
        response: { 200: z.array(MessageSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) =>
      sendPage(reply, await service.listMessages(request.caller, request.params.chatId, request.query)),
  );

  r.get(
    '/:chatId/export',
    {
      config: user,
      schema: {
        tags,
        summary: 'Download a chat as Markdown (the branch on screen) or JSON (every message)',
        params: ChatIdParams,
        querystring: ChatExportQuerySchema,
        response: {
          200: {
            description: 'The file, as a download',
            content: {
              'text/markdown': { schema: z.string() },
              'application/json': { schema: ChatExportSchema },
            },
          },
          ...errorResponses('NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const labels = await ctx.services.providers.providerLabels(caller.domain.id);
      const file = await service.exportChat(
        caller,
        request.params.chatId,
        request.query,
        localeHints(request),
        labels,
      );
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );

  r.post(
    '/:chatId/attachments',
    {
      config: user,
      schema: {
        tags,
        summary: 'Upload a file for a message of this chat (multipart, one file)',
        consumes: ['multipart/form-data'],
        params: ChatIdParams,
        response: {
          201: AttachmentSchema,
          ...errorResponses('NOT_FOUND', ...UPLOAD_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const { chatId } = request.params;
      // Refuse before reading the body when the chat is not theirs or the domain is out of room.
      await service.checkUpload(caller, chatId);
      const stored = await receiveUpload(
        ctx,
        request,
        { domainId: caller.domain.id, maxBytes: ctx.config.UPLOAD_MAX_BYTES },
        (file) => service.uploadAttachment(caller, chatId, file),
      );
      return reply.status(201).send(stored);
    },
  );

  r.get(
    '/:chatId/attachments/:attachmentId',
    {
      config: user,
      schema: {
        tags,
        summary: 'Download an attachment',
        params: AttachmentIdParams,
        response: { 200: BinaryBody, ...errorResponses('NOT_FOUND', 'STORAGE_UNAVAILABLE') },
      },
    },
    async (request, reply) => {
      const { chatId, attachmentId } = request.params;
      const { object, fileName } = await service.openAttachment(request.caller, chatId, attachmentId);
      return sendStoredObject(reply, object, fileName);
    },
  );

  r.delete(
    '/:chatId/attachments/:attachmentId',
    {
      config: user,
      schema: {
        tags,
        summary: 'Remove an upload no message uses yet',
        params: AttachmentIdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      const { chatId, attachmentId } = request.params;
      await service.deleteAttachment(request.caller, chatId, attachmentId);
      return reply.status(204).send(null);
    },
  );
}
