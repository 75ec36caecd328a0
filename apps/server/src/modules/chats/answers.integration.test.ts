import { AttachmentSchema, MessageSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messages } from '../../db/schema/index.ts';
import { appendUserMessage } from '../../test/chats.ts';
import { useChatsSuite } from '../../test/chats-suite.ts';
import { INTERRUPTED_MESSAGE } from '../agents/model-calls.ts';

const { s, call, upload, flush, callerOf } = useChatsSuite();

describe('the service the agents websocket uses', () => {
  it('stores a turn: user message first, then a streaming answer flushed and finished', async () => {
    const service = s.t.ctx.services.chats;
    const caller = await callerOf(s.alice);
    const chat = await service.createChat(caller, {});
    const file = AttachmentSchema.parse(
      (await upload(s.alice, chat.chatId, 'n.txt', 'text/plain', 'notas')).json(),
    );
    const user = await appendUserMessage(s.t.ctx, caller, chat.chatId, {
      content: 'Resuma o arquivo',
      attachmentIds: [file.attachmentId],
    });
    expect(user).toMatchObject({ role: 'user', status: 'complete', parentId: null, attachments: [file] });

    const answer = await service.createAssistantMessage(chat.chatId, user.messageId, 'openai:gpt-4.1-mini');
    expect(answer).toMatchObject({
      role: 'assistant',
      status: 'streaming',
      content: '',
      parentId: user.messageId,
    });
    await flush(answer.messageId, 'Parcial');
    const mid = await call('GET', `/api/v1/chats/${chat.chatId}/messages`, s.alice);
    expect((mid.json() as Array<{ content: string; status: string }>)[1]).toMatchObject({
      content: 'Parcial',
      status: 'streaming',
    });
    const done = await service.finishAssistantMessage(answer.messageId, {
      status: 'complete',
      content: 'Parcial e final',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    });
    expect(done).toMatchObject({
      status: 'complete',
      usage: { totalTokens: 15 },
      model: 'openai:gpt-4.1-mini',
    });
    // A late flush or a second end (a stop racing the natural end) changes nothing.
    await flush(answer.messageId, ' tarde');
    const again = await service.finishAssistantMessage(answer.messageId, { status: 'stopped', content: 'x' });
    expect(again).toMatchObject({ status: 'complete', content: 'Parcial e final' });

    const models = await service.getAttachmentsForModel(caller, [file.attachmentId, crypto.randomUUID()]);
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({ contentType: 'text/plain', name: 'n.txt' });
    expect(models[0]!.data.toString()).toBe('notas');
  });

  it('gives the model the branch root → leaf, whatever other branches exist', async () => {
    const service = s.t.ctx.services.chats;
    const caller = await callerOf(s.alice);
    const chat = await service.createChat(caller, { title: 'ramos' });
    const q1 = await appendUserMessage(s.t.ctx, caller, chat.chatId, { content: 'q1' });
    const a1 = await service.createAssistantMessage(chat.chatId, q1.messageId, null);
    await service.finishAssistantMessage(a1.messageId, { status: 'complete', content: 'a1' });
    // Omitted parent → after the newest message.
    const q2 = await appendUserMessage(s.t.ctx, caller, chat.chatId, { content: 'q2' });
    expect(q2.parentId).toBe(a1.messageId);
    const a2 = await service.createAssistantMessage(chat.chatId, q2.messageId, null);
    // Regenerate: a sibling answer under q2.
    const a2b = await service.createAssistantMessage(chat.chatId, q2.messageId, null);
    // Edit q2: a sibling question under a1.
    const q2e = await appendUserMessage(s.t.ctx, caller, chat.chatId, {
      content: 'q2 edited',
      parentId: a1.messageId,
    });

    const ctxOf = async (leaf: string) =>
      (await service.listMessagesForContext(chat.chatId, leaf)).map((m) => m.messageId);
    expect(await ctxOf(a2.messageId)).toEqual([q1.messageId, a1.messageId, q2.messageId, a2.messageId]);
    expect(await ctxOf(a2b.messageId)).toEqual([q1.messageId, a1.messageId, q2.messageId, a2b.messageId]);
    expect(await ctxOf(q2e.messageId)).toEqual([q1.messageId, a1.messageId, q2e.messageId]);
    expect(await service.listMessagesForContext(chat.chatId, crypto.randomUUID())).toEqual([]);

    const got = await service.getMessageForCaller(caller, chat.chatId, a2.messageId);
    expect(got.parentId).toBe(q2.messageId);
  });

  it('ends answers whose writer died, keeping the partial text; live ones are left alone', async () => {
    const service = s.t.ctx.services.chats;
    const caller = await callerOf(s.alice);
    const chat = await service.createChat(caller, {});
    const q = await appendUserMessage(s.t.ctx, caller, chat.chatId, { content: 'q' });
    const dead = await service.createAssistantMessage(chat.chatId, q.messageId, null);
    await flush(dead.messageId, 'meia resp');
    const live = await service.createAssistantMessage(chat.chatId, q.messageId, null);
    await s.t.ctx.db
      .update(messages)
      .set({ updatedAt: new Date(Date.now() - 20 * 60_000) })
      .where(eq(messages.id, dead.messageId));
    // The one sweep, run by the scheduler under its lease (the agents module owns answers).
    expect(await s.t.ctx.scheduler.runNow('agents.stale-answers')).toBe(true);
    const list = z
      .array(MessageSchema)
      .parse((await call('GET', `/api/v1/chats/${chat.chatId}/messages`, s.alice)).json());
    expect(list.find((m) => m.messageId === dead.messageId)).toMatchObject({
      status: 'error',
      content: 'meia resp',
      error: INTERRUPTED_MESSAGE,
      errorCode: 'UNAVAILABLE',
    });
    expect(list.find((m) => m.messageId === live.messageId)?.status).toBe('streaming');
  });

  it('refuses empty, oversized and mis-parented messages with 400', async () => {
    const service = s.t.ctx.services.chats;
    const caller = await callerOf(s.alice);
    const chat = await service.createChat(caller, {});
    const other = await service.createChat(caller, {});
    const foreign = await appendUserMessage(s.t.ctx, caller, other.chatId, { content: 'x' });
    for (const input of [
      { content: '   ' },
      { content: 'x'.repeat(100_001) },
      { content: 'x', parentId: foreign.messageId },
      { content: 'x', attachmentIds: [crypto.randomUUID()] },
    ]) {
      await expect(appendUserMessage(s.t.ctx, caller, chat.chatId, input)).rejects.toMatchObject({
        status: 400,
      });
    }
    const res = await call('GET', `/api/v1/chats/${chat.chatId}/messages`, s.alice);
    expect(res.json()).toEqual([]);
  });
});
