import type { Message } from '@assistente/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../context.ts';
import type { UserCaller } from '../lib/caller.ts';
import { chatNotFound } from '../modules/chats/errors.ts';
import { chatsStore } from '../modules/chats/store.ts';

/** A `multipart/form-data` body with one file, serialised by the platform's own FormData. */
export async function multipartFile(
  fileName: string,
  contentType: string,
  data: Buffer | string,
  field = 'file',
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  form.append(field, new Blob([new Uint8Array(bytes)], { type: contentType }), fileName);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** POSTs one file as `multipart/form-data` to `url`, signed in as `who`. */
export async function postFile(
  app: FastifyInstance,
  url: string,
  who: { headers: Record<string, string> },
  file: { name: string; type: string; data: Buffer | string },
): Promise<LightMyRequestResponse> {
  const body = await multipartFile(file.name, file.type, file.data);
  return app.inject({
    method: 'POST',
    url,
    headers: { ...who.headers, ...body.headers },
    payload: body.payload,
  });
}

/** The smallest valid PNG (1×1, transparent). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Stores a user message with no answer, as a question the agents have not answered yet: checked by
 * the service as every message is, then committed (404 once the chat is gone).
 */
export async function appendUserMessage(
  ctx: AppContext,
  caller: UserCaller,
  chatId: string,
  input: { content: string; parentId?: string | null; attachmentIds?: string[] },
): Promise<Message> {
  const prepared = await ctx.services.chats.prepareUserMessage(caller, chatId, input);
  const touched = await chatsStore(ctx.db).insertExchange({ kind: 'touch', owner: caller, id: chatId }, [
    prepared.row,
  ]);
  if (!touched) throw chatNotFound();
  return prepared.message;
}
