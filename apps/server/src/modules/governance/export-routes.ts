import { ExportDownloadQuerySchema, ExportRequestSchema, ExportSchema } from '@assistente/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { BinaryBody, errorResponses, IdParams, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { localeHints } from '../accounts/locale.ts';
import { auditMeta } from '../audit/index.ts';
import { contentDisposition } from '../storage/index.ts';

const tags = ['governance'];

/**
 * Exports (docs/ARCHITECTURE.md#export-and-erasure), mounted at /api/v1: a person's own at
 * /me/export, an Admin's of a person or a department at /export. Each is downloaded by whoever
 * asked for it, with their own credentials, until it expires.
 */
export async function exportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.personalData;
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onSend', noStore);

  /** Streams the ZIP; the writing stops when the client goes away. */
  const download = async (
    request: FastifyRequest & { caller: UserCaller },
    reply: FastifyReply,
    id: string,
    mine: boolean,
    timeZone: string | undefined,
  ) => {
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    const file = await service.openExport(request.caller, id, mine, {
      hints: localeHints(request),
      timeZone,
      signal: gone.signal,
    });
    return reply
      .type('application/zip')
      .header('content-disposition', contentDisposition(file.fileName))
      .header('x-content-type-options', 'nosniff')
      .send(file.body);
  };

  const downloadSchema = (summary: string) => ({
    tags,
    summary,
    description:
      'A ZIP written as it is sent: per chat `chats/<date> <title> <id>.json` (every message) and `.md`, ' +
      '`files/…` (the attachments still stored), `prompts.json`, `memories.json`, `shares.json` and ' +
      '`manifest.json` (counts); a department’s has a folder a person. Only whoever asked for it, ' +
      'until `expiresAt`; otherwise 404.',
    params: IdParams,
    querystring: ExportDownloadQuerySchema,
    response: { 200: BinaryBody, ...errorResponses('NOT_FOUND') },
  });

  r.post(
    '/me/export',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Ask for a ZIP of everything you have',
        description:
          'Download it at `downloadUrl` with your credentials, within the hours ExportLimits allows.',
        response: { 201: ExportSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createMyExport(request.caller)),
  );

  r.get(
    '/me/export/:id',
    { config: RouteNeeds.user, schema: downloadSchema('Download your export') },
    (request, reply) => download(request, reply, request.params.id, true, request.query.timeZone),
  );

  r.post(
    '/export',
    {
      config: RouteNeeds.admin,
      schema: {
        tags,
        summary: 'Export a person’s or a department’s data (a data-subject request)',
        description:
          'An Admin of their domain, a SuperAdmin any; recorded in the audit log (`export.create`). ' +
          'Downloaded at `downloadUrl` by whoever asked.',
        body: ExportRequestSchema,
        response: { 201: ExportSchema, ...errorResponses('USER_NOT_FOUND', 'DEPARTMENT_NOT_FOUND') },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createExport(request.caller, request.body, auditMeta(request))),
  );

  r.get(
    '/export/:id',
    { config: RouteNeeds.admin, schema: downloadSchema('Download an export you asked for') },
    (request, reply) => download(request, reply, request.params.id, false, request.query.timeZone),
  );
}
