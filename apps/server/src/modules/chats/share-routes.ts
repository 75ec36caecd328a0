import {
  ShareCopySchema,
  ShareCreateSchema,
  SharedChatSchema,
  ShareListQuerySchema,
  ShareOptionsSchema,
  ShareSchema,
  SharingSettingsSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendPage } from '../../lib/paging.ts';
import { domainSettingRoutes } from '../../plugins/domain-setting-routes.ts';
import { BinaryBody, errorResponses, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';
import { sendStoredObject } from '../storage/index.ts';

/** Any id up to 100 characters: one that is no link's answers 404 like a revoked one. */
const ShareIdParams = z.object({ shareId: z.string().min(1).max(100) });
const ShareFileParams = ShareIdParams.extend({ attachmentId: z.string().min(1).max(100) });
const ChatIdParams = z.object({ chatId: z.string().min(1).max(100) });

/**
 * Share links (docs/ARCHITECTURE.md#share-links), mounted at /api/v1 with the chats manager:
 * making one of a chat, the owner's list and revocation, and reading, downloading a file of and
 * continuing a link — signed in or, for a public link, not.
 */
export async function shareRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.chats;
  // Links are per reader (audience, views): never let a shared cache keep them.
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['shares'];
  /** Anyone may try a link; a signed-in reader's token is checked when sent. */
  const reader = { auth: ['public', 'user'] } as const;

  r.post(
    '/chats/:chatId/shares',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Share a chat by link: a snapshot of one branch, for the domain, a department or anyone',
        params: ChatIdParams,
        body: ShareCreateSchema,
        response: { 201: ShareSchema, ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      const share = await service.createShare(
        request.caller,
        request.params.chatId,
        request.body,
        auditMeta(request),
      );
      return reply.status(201).send(share);
    },
  );

  r.get(
    '/shares',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'The caller’s share links, newest first',
        querystring: ShareListQuerySchema,
        response: { 200: z.array(ShareSchema), ...errorResponses('BAD_REQUEST') },
      },
    },
    async (request, reply) => sendPage(reply, await service.listShares(request.caller, request.query)),
  );

  r.get(
    '/shares/options',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'What the caller may share: whether their organisation allows public links',
        response: { 200: ShareOptionsSchema },
      },
    },
    async (request) => service.shareOptions(request.caller),
  );

  r.get(
    '/shares/:shareId',
    {
      config: reader,
      schema: {
        tags,
        summary: 'Read a shared chat (404 when revoked, expired, deleted or not for the reader)',
        params: ShareIdParams,
        response: { 200: SharedChatSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.readShare(request.caller, request.params.shareId),
  );

  r.delete(
    '/shares/:shareId',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Revoke a share link (its owner, or an Admin of its organisation)',
        params: ShareIdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.revokeShare(request.caller, request.params.shareId, auditMeta(request));
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/shares/:shareId/copy',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Continue a shared chat as a copy of the reader’s own, with its files',
        params: ShareIdParams,
        response: {
          201: ShareCopySchema,
          ...errorResponses('NOT_FOUND', 'QUOTA_EXCEEDED', 'STORAGE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.copyShare(request.caller, request.params.shareId)),
  );

  r.get(
    '/shares/:shareId/files/:attachmentId',
    {
      config: reader,
      schema: {
        tags,
        summary: 'Download a file of a shared chat',
        params: ShareFileParams,
        response: { 200: BinaryBody, ...errorResponses('NOT_FOUND', 'STORAGE_UNAVAILABLE') },
      },
    },
    async (request, reply) => {
      const { shareId, attachmentId } = request.params;
      const { object, fileName } = await service.openShareFile(request.caller, shareId, attachmentId);
      return sendStoredObject(reply, object, fileName);
    },
  );
}

/** Whether a domain allows public links (Admin+), mounted at /api/v1/settings/sharing. */
export async function sharingSettingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.chats;
  domainSettingRoutes(app, {
    tags: ['shares'],
    setting: SharingSettingsSchema,
    update: SharingSettingsSchema,
    summaries: {
      get: 'The domain’s sharing settings: whether links may be public',
      put: 'Allow or stop public share links (stopping them takes effect at once)',
    },
    read: (caller, domain) => service.getSharingSettings(caller, domain),
    write: (caller, body, request, domain) =>
      service.putSharingSettings(caller, body, auditMeta(request), domain),
  });
}
