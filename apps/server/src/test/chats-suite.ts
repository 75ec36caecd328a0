import { type Chat, ChatSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { chats } from '../db/schema/index.ts';
import { buildTestApp, errorOf, type Method, type TestApp, type Who } from './app.ts';
import { postFile } from './chats.ts';
import { makeDomain, makeUser, type TestUser } from './factories.ts';

/** The largest upload the chats suites' app takes (UPLOAD_MAX_BYTES). */
export const UPLOAD_MAX = 64 * 1024;

/** What a chats suite works with, filled in by its `beforeAll`. */
export interface ChatsSuite {
  t: TestApp;
  alice: TestUser;
  /** Admin of alice's domain. */
  colleague: TestUser;
  /** SuperAdmin of another domain. */
  stranger: TestUser;
}

/**
 * The chats integration suites' app and users (one app per test file), with the hooks that build
 * and close them. Read the handles inside tests and hooks: they are set once `beforeAll` ran.
 */
export function useChatsSuite() {
  const s = {} as ChatsSuite;
  beforeAll(async () => {
    s.t = await buildTestApp({ UPLOAD_MAX_BYTES: String(UPLOAD_MAX) });
    const a = await makeDomain(s.t.ctx);
    s.alice = await makeUser(s.t.ctx, { domain: a });
    s.colleague = await makeUser(s.t.ctx, { domain: a, role: 'Admin' });
    s.stranger = await makeUser(s.t.ctx, { role: 'SuperAdmin' });
  });
  afterAll(async () => {
    await s.t?.close();
  });

  const call = (method: Method, url: string, who?: Who, payload?: unknown) =>
    s.t.call(method, url, who, payload);
  return {
    s,
    call,
    upload: (who: TestUser, chatId: string, name: string, type: string, data: Buffer | string) =>
      postFile(s.t.app, `/api/v1/chats/${chatId}/attachments`, who, { name, type, data }),
    errorOf,
    async createChat(who: TestUser, body: object = {}): Promise<Chat> {
      const res = await call('POST', '/api/v1/chats', who, body);
      expect(res.statusCode).toBe(201);
      return ChatSchema.strict().parse(res.json());
    },
    /** Streamed text of an answer, written as the agents' flush writes it (appended while still streaming). */
    async flush(messageId: string, delta: string) {
      await s.t.ctx.services.chats.saveStreaming([{ id: messageId, at: 0, text: delta }]);
    },
    async chatRow(id: string) {
      const [row] = await s.t.ctx.db.select().from(chats).where(eq(chats.id, id));
      return row;
    },
    /** The UserCaller the auth plugin would make for a test user's token. */
    async callerOf(who: TestUser) {
      const { resolveCaller } = await import('../plugins/auth.ts');
      return resolveCaller(s.t.ctx, who.idToken);
    },
  };
}
