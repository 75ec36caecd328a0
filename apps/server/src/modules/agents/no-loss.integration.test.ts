import { MessageSchema } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { ANSWER, useAgentsSuite } from '../../test/agents-suite.ts';

const { the, connect, rid, messageRow, exchange, waitForStored, restChat } = useAgentsSuite();

describe('no loss', () => {
  it('stop keeps the partial answer with status stopped', async () => {
    const s = await connect(the.alice);
    the.fx.setScript({ text: ANSWER, delayMs: 60 });
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'Go slowly' });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await s.next(
      'message.delta',
      (f) => f.messageId === a.message.messageId && s.textOf(a.message.messageId).length > 10,
    );
    s.send({ type: 'chat.stop', chatId: a.chatId });
    const done = await s.next('message.done', (f) => f.messageId === a.message.messageId);
    expect(done).toMatchObject({ status: 'stopped', finishReason: 'stopped' });
    const row = await messageRow(a.message.messageId);
    expect(row?.status).toBe('stopped');
    expect(row?.content.length).toBeGreaterThan(10);
    expect(ANSWER.startsWith(row?.content ?? '!')).toBe(true);
    expect(row?.content).toBe(s.textOf(a.message.messageId));
    expect(row?.content).not.toBe(ANSWER);
  });

  it('a stop sent right behind the send, before the answer exists, still stops it', async () => {
    const chat = await restChat(the.alice);
    const s = await connect(the.alice);
    the.fx.setScript({ text: ANSWER, delayMs: 100 });
    s.send({ type: 'chat.send', requestId: 'racy', chatId: chat.chatId, content: 'Never mind' });
    s.send({ type: 'chat.stop', chatId: chat.chatId });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === 'racy' && f.message.role === 'assistant',
    );
    const done = await s.next('message.done', (f) => f.messageId === a.message.messageId);
    expect(done.status).toBe('stopped');
    expect((await messageRow(a.message.messageId))?.status).toBe('stopped');
  });

  it('a provider failing mid-stream leaves the partial text with status error', async () => {
    const s = await connect(the.alice);
    the.fx.setScript({ text: ANSWER, failAfterChunks: 4 });
    const r = await exchange(s, { content: 'Fail please' });
    expect(r.done.status).toBe('error');
    expect(r.done.error?.code).toBe('PROVIDER_ERROR');
    expect(r.done.error?.message).toMatch(/broke off during the answer/);
    // People read the failure as a code the web translates, never the English line.
    expect(r.done.error?.reason).toEqual({ code: 'broken_off' });
    const row = await messageRow(r.assistant.messageId);
    expect(row?.status).toBe('error');
    expect(row?.content).toBe('The quick brown fox ');
    expect(row?.error).toBeTruthy();
  });

  it('an error event from the provider ends the answer with status error, partial text kept', async () => {
    const s = await connect(the.alice);
    the.fx.setScript({
      text: ANSWER,
      failAfterChunks: 2,
      failMode: 'error-event',
      errorMessage: 'overloaded',
    });
    const r = await exchange(s, { content: 'Fail again' });
    expect(r.done.status).toBe('error');
    expect((await messageRow(r.assistant.messageId))?.content).toBe('The quick ');
  });

  it('a provider refusing the key ends with a clear error and no text', async () => {
    const s = await connect(the.alice);
    the.fx.setScript({ status: 401 });
    const r = await exchange(s, { content: 'Bad key' });
    expect(r.done.status).toBe('error');
    expect(r.done.error?.message).toContain('API key');
    expect((await messageRow(r.assistant.messageId))?.error).toContain('API key');
    expect(r.done.error?.reason).toEqual({ code: 'key_refused', status: 401 });
    // Stored with the answer: the chat read again says it the same way.
    const listed = await the.t.app.inject({
      method: 'GET',
      url: `/api/v1/chats/${r.done.chatId}/messages`,
      headers: the.alice.headers,
    });
    const stored = MessageSchema.array()
      .parse(listed.json())
      .find((m) => m.messageId === r.assistant.messageId);
    expect(stored).toMatchObject({
      errorCode: 'PROVIDER_ERROR',
      errorReason: { code: 'key_refused', status: 401 },
    });
    // The user's message stays: they can regenerate once the key is fixed.
    expect((await messageRow(r.user.messageId))?.status).toBe('complete');
  });

  it('a client going away does not stop the answer: it finishes and is stored in full', async () => {
    const s = await connect(the.alice);
    the.fx.setScript({ text: ANSWER, delayMs: 30 });
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'I will leave' });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await s.next('message.delta', (f) => f.messageId === a.message.messageId);
    s.ws.terminate();
    const row = await waitForStored(a.message.messageId);
    expect(row).toMatchObject({ status: 'complete', content: ANSWER });
    expect(row.usage?.outputTokens).toBe(14);
  });

  it('flushes the partial answer to the database while streaming', async () => {
    const s = await connect(the.alice);
    the.fx.setScript({ text: ANSWER, delayMs: 80 });
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'Flush' });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await s.next(
      'message.delta',
      (f) => f.messageId === a.message.messageId && s.textOf(a.message.messageId).length > 20,
    );
    // Stored while it still streams: the first flush, however soon it comes.
    const deadline = Date.now() + 5_000;
    let mid = await messageRow(a.message.messageId);
    while ((mid?.content.length ?? 0) <= 10 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      mid = await messageRow(a.message.messageId);
    }
    expect(mid?.status).toBe('streaming');
    expect(mid?.content.length).toBeGreaterThan(10);
    await s.next('message.done', (f) => f.messageId === a.message.messageId);
  });

  it('a reconnecting client resumes a stream in progress with chat.subscribe', async () => {
    const first = await connect(the.alice);
    the.fx.setScript({ text: ANSWER, delayMs: 40 });
    const requestId = rid();
    first.send({ type: 'chat.send', requestId, chatId: null, content: 'Resume me' });
    const a = await first.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await first.next(
      'message.delta',
      (f) => f.messageId === a.message.messageId && first.textOf(a.message.messageId).length > 15,
    );
    first.ws.terminate();
    await new Promise((r) => setTimeout(r, 100));

    const again = await connect(the.alice);
    again.send({ type: 'chat.subscribe', chatId: a.chatId, requestId: 'sub' });
    const snapshot = await again.next('message.snapshot', (f) => f.message.messageId === a.message.messageId);
    expect(snapshot.message.status).toBe('streaming');
    expect(snapshot.message.content.length).toBeGreaterThan(15);
    const subscribed = await again.next('chat.subscribed', (f) => f.requestId === 'sub');
    expect(subscribed.streaming).toEqual([a.message.messageId]);
    await again.next('message.done', (f) => f.messageId === a.message.messageId);
    expect(again.textOf(a.message.messageId)).toBe(ANSWER);
  });

  it('subscribing to a chat with nothing generating answers an empty list', async () => {
    const s = await connect(the.alice);
    const r = await exchange(s, { content: 'Done already' });
    s.send({ type: 'chat.subscribe', chatId: r.chatId });
    expect((await s.next('chat.subscribed', (f) => f.chatId === r.chatId)).streaming).toEqual([]);
  });
});
