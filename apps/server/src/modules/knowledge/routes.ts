import {
  ConfluenceSettingsSchema,
  ConfluenceTestResultSchema,
  KnowledgeDocumentListQuerySchema,
  KnowledgeDocumentSchema,
  KnowledgeQuerySchema,
  KnowledgeSourceChoiceSchema,
  KnowledgeSourceCreateSchema,
  KnowledgeSourceSchema,
  KnowledgeSourceUpdateSchema,
} from '@assistente/contracts';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AppContext, Channels } from '../../context.ts';
import { type AuthInvalidateMessage, checkRouteNeeds, type UserCaller } from '../../lib/caller.ts';
import { sendPage } from '../../lib/paging.ts';
import { type EventStream, EventStreams } from '../../lib/sse.ts';
import { bearerToken } from '../../plugins/auth.ts';
import { BinaryBody, errorResponses } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';
import { deleteStored, receiveUpload, sendStoredObject, UPLOAD_ERRORS } from '../storage/index.ts';
import { forwardKnowledge } from './events.ts';

const IdParams = z.object({ id: z.string().min(1).max(100) });
const DocumentParams = z.object({ id: z.string().min(1).max(100), documentId: z.string().min(1).max(100) });

/** Who holds an open event stream, to check again when their account changes. */
interface Watcher {
  caller: UserCaller;
  token: string;
  /** `?domain=` as asked, and the domain it resolved to. */
  requested: string | undefined;
  domainId: string;
}

/**
 * Knowledge sources (docs/ARCHITECTURE.md#knowledge), mounted at /api/v1/integration/knowledge: the Admins of a premium
 * domain (SuperAdmin any, via `?domain=`).
 */
export async function knowledgeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.knowledge;
  const maxBytes = ctx.config.UPLOAD_MAX_BYTES;
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 12 } });
  app.addHook('onSend', noStore);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { auth: 'user', role: 'Admin', premium: true } as const;
  const tags = ['knowledge'];
  const querystring = KnowledgeQuerySchema;

  // Admins' screens follow syncs and indexing as they happen, whichever replica does the work.
  const streams = new EventStreams();
  const watchers = new Map<EventStream, Watcher>();
  /** Ends a stream whose caller may no longer watch its domain (signed out, demoted, moved). */
  const recheck = async (stream: EventStream, w: Watcher) => {
    try {
      const caller = await ctx.services.callers.resolve(['user'], w.token);
      checkRouteNeeds(caller, admin);
      if (caller.kind !== 'user' || (await service.adminDomain(caller, w.requested)) !== w.domainId) {
        stream.end();
      }
    } catch {
      stream.end();
    }
  };
  const unsubscribeAuth = ctx.bus.subscribe(Channels.authInvalidate, (raw) => {
    const msg = (raw ?? {}) as AuthInvalidateMessage;
    const email = msg.email?.toLowerCase();
    const domain = msg.domain?.toLowerCase();
    // After the caller caches (subscribed earlier) have dropped the account's state.
    setImmediate(() => {
      for (const [stream, w] of watchers) {
        if (
          msg.all ||
          msg.uid === w.caller.uid ||
          (email && email === w.caller.email) ||
          (domain && (domain === w.caller.domain.id || domain === w.domainId))
        ) {
          void recheck(stream, w);
        }
      }
    });
  });
  // preClose, not onClose: the server waits for its open connections before onClose runs, and an
  // open stream never ends by itself.
  app.addHook('preClose', async () => {
    unsubscribeAuth();
    streams.endAll();
  });

  r.get(
    '/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The domain’s knowledge sources (API tokens never shown)',
        querystring,
        response: { 200: z.array(KnowledgeSourceSchema), ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.list(request.caller, request.query.domain),
  );

  r.get(
    '/events',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The domain’s knowledge changes as they happen: sync progress, documents indexed',
        description:
          'Server-sent events (`text/event-stream`), each `event: <type>` with its JSON `data`: first ' +
          '`ready`, once every change from then on will arrive (read the sources after it), then ' +
          '`source`, `source.removed`, `document` and `document.removed` as they happen on any ' +
          'replica. A comment line every 20 s keeps it open; it ends after 10 minutes, or when the ' +
          'caller may no longer watch the domain: reconnect with a fresh token.',
        querystring,
        response: {
          200: {
            description: 'The event stream',
            content: { 'text/event-stream': { schema: z.string().describe('Server-sent events') } },
          },
          ...errorResponses('DOMAIN_NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      // Authorized as the list is: the domain's Admins, a SuperAdmin any domain.
      const domainId = await service.adminDomain(caller, request.query.domain);
      const stream = streams.start(reply);
      watchers.set(stream, {
        caller,
        token: bearerToken(request) ?? '',
        requested: request.query.domain,
        domainId,
      });
      stream.onEnd(() => watchers.delete(stream));
      forwardKnowledge(ctx, domainId, stream);
    },
  );

  r.post(
    '/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Connect a Confluence site or create a files source',
        querystring,
        body: KnowledgeSourceCreateSchema,
        response: { 201: KnowledgeSourceSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      const made = await service.create(caller, request.body, auditMeta(request), request.query.domain);
      return reply.status(201).send(made);
    },
  );

  r.post(
    '/test-connection',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Try Confluence settings before saving them: the spaces found and their page counts',
        querystring,
        body: ConfluenceSettingsSchema,
        response: { 200: ConfluenceTestResultSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.testConnection(request.caller, request.body, request.query.domain),
  );

  r.post(
    '/:id/sync',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Sync a source now (Confluence: fetch what changed; files: retry failed documents)',
        params: IdParams,
        querystring,
        response: { 202: KnowledgeSourceSchema, ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const made = await service.syncNow(request.caller, request.params.id, request.query.domain);
      return reply.status(202).send(made);
    },
  );

  r.get(
    '/choices',
    {
      config: { auth: 'user', role: 'Editor', premium: true },
      schema: {
        tags,
        summary: 'The caller’s domain’s sources, to attach to a santito (Editors and above)',
        response: { 200: z.array(KnowledgeSourceChoiceSchema) },
      },
    },
    async (request) => service.choices(request.caller),
  );

  r.get(
    '/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'One knowledge source, with its sync status and progress',
        params: IdParams,
        querystring,
        response: { 200: KnowledgeSourceSchema, ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.get(request.caller, request.params.id, request.query.domain),
  );

  r.put(
    '/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change a source (an empty or absent API token keeps the stored one)',
        params: IdParams,
        querystring,
        body: KnowledgeSourceUpdateSchema,
        response: { 200: KnowledgeSourceSchema, ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
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
    '/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove a source with its documents and their index',
        params: IdParams,
        querystring,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      const keys = await service.remove(caller, request.params.id, auditMeta(request), request.query.domain);
      await deleteStored(ctx, 'knowledge', keys);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/:id/documents',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A source’s documents with their indexing status (paged)',
        params: IdParams,
        querystring: KnowledgeDocumentListQuerySchema,
        response: {
          200: z.array(KnowledgeDocumentSchema),
          ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND', 'BAD_REQUEST'),
        },
      },
    },
    async (request, reply) =>
      sendPage(
        reply,
        await service.documents(request.caller, request.params.id, request.query, request.query.domain),
      ),
  );

  r.post(
    '/:id/documents',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Upload a document to a files source (multipart, one file: PDF, DOCX, Markdown, HTML, text)',
        consumes: ['multipart/form-data'],
        params: IdParams,
        querystring,
        response: {
          201: KnowledgeDocumentSchema,
          ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND', 'BAD_REQUEST', ...UPLOAD_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      // Who may upload is checked before the body is read.
      const domain = await service.adminDomain(caller, request.query.domain);
      await service.get(caller, request.params.id, domain);
      const stored = await receiveUpload(ctx, request, { domainId: domain, maxBytes }, (file) =>
        service.upload(caller, request.params.id, file, auditMeta(request), domain),
      );
      return reply.status(201).send(stored);
    },
  );

  r.get(
    '/:id/documents/:documentId/file',
    {
      // Admins, users of a santito citing it, and visitors of an embed whose santito cites it (the
      // service checks which).
      config: { auth: ['user', 'visitor'], premium: true },
      schema: {
        tags,
        summary: 'Download an uploaded document',
        params: DocumentParams,
        querystring,
        response: {
          200: BinaryBody,
          ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND', 'STORAGE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      const { object, fileName } = await service.file(
        caller,
        request.params.id,
        request.params.documentId,
        request.query.domain,
      );
      return sendStoredObject(reply, object, fileName);
    },
  );

  r.delete(
    '/:id/documents/:documentId',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove one document and its index',
        params: DocumentParams,
        querystring,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      const key = await service.removeDocument(
        caller,
        request.params.id,
        request.params.documentId,
        auditMeta(request),
        request.query.domain,
      );
      if (key) await deleteStored(ctx, 'knowledge', [key]);
      return reply.status(204).send(null);
    },
  );
}
