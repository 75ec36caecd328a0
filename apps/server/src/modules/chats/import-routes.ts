import { ChatImportLimits, ChatImportReportSchema } from '@assistente/contracts';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { errorResponses } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';
import { importRunning } from './errors.ts';
import { ImportGate, withUploadedFile } from './import-upload.ts';

/** Imports one process runs at once; more wait (docs/ARCHITECTURE.md#chat-import). */
const IMPORTS_AT_ONCE = 2;

/**
 * POST /api/v1/chats/import (docs/ARCHITECTURE.md#chat-import): a plugin of its own, for its own
 * multipart limits (an export is far larger than an attachment).
 */
export async function chatImportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.chats;
  const gate = new ImportGate(IMPORTS_AT_ONCE);
  await app.register(multipart, {
    limits: { fileSize: ChatImportLimits.maxUploadBytes, files: 1, fields: 5, parts: 6, headerPairs: 200 },
  });
  app.addHook('onSend', noStore);

  app.withTypeProvider<ZodTypeProvider>().post(
    '/import',
    {
      // A person's own chats: not a visitor of an embed, not an API key.
      config: { auth: ['user'] },
      schema: {
        tags: ['chats'],
        summary:
          'Import a ChatGPT or Claude export (multipart, one file: the export ZIP or its conversations.json): what became of each conversation',
        consumes: ['multipart/form-data'],
        response: {
          200: ChatImportReportSchema,
          ...errorResponses('BAD_REQUEST', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
        },
      },
    },
    async (request) => {
      const { caller } = request;
      if (gate.busy(caller.user.id)) throw importRunning();
      return gate.run(caller.user.id, () =>
        withUploadedFile(request, ChatImportLimits.maxUploadBytes, (upload) =>
          service.importChats(caller, upload, auditMeta(request)),
        ),
      );
    },
  );
}
