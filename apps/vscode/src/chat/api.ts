import {
  ChatSchema,
  MessageSchema,
  ModelListSchema,
  type RuntimeConfig,
  SantitoSchema,
} from '@assistente/contracts';
import { z } from 'zod';
import { ServerError } from '../auth/server.ts';

/** The REST calls the chat view makes, with the signed-in session's id token. */
export function chatApi(config: () => Promise<RuntimeConfig>, token: () => Promise<string | undefined>) {
  async function get<T>(
    base: 'chatsManagerUrl' | 'accountManagerUrl',
    path: string,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const c = await config();
    const t = await token();
    if (!t) throw new ServerError(401, 'UNAUTHENTICATED', 'Signed out');
    const response = await fetch(`${c[base].replace(/\/+$/, '')}${path}`, {
      headers: { authorization: `Bearer ${t}`, accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new ServerError(response.status, 'HTTP_ERROR', `HTTP ${response.status}`);
    return schema.parse(await response.json());
  }

  return {
    listChats: () => get('chatsManagerUrl', '/api/v1/chats?limit=50', z.array(ChatSchema)),
    messages: (chatId: string) =>
      get(
        'chatsManagerUrl',
        `/api/v1/chats/${encodeURIComponent(chatId)}/messages?limit=200`,
        z.array(MessageSchema),
      ),
    models: () => get('chatsManagerUrl', '/api/v1/models', ModelListSchema),
    /** Santitos are a premium feature: elsewhere the list answers 404, which means none. */
    santitos: async () => {
      try {
        return await get('accountManagerUrl', '/api/v1/agent?limit=100', z.array(SantitoSchema));
      } catch (err) {
        if (err instanceof ServerError && err.status === 404) return [];
        throw err;
      }
    },
  };
}
export type ChatApi = ReturnType<typeof chatApi>;
