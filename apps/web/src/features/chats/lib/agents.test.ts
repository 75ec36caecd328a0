import type { Message } from '@assistente/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeAgentsSocket as FakeSocket } from '../../../test/fakeAgentsSocket.ts';
import { CHAT_ID, chat as chatFixture, userMessage as userMessageFixture } from '../../../test/fixtures.ts';
import { AgentsController } from './agents.ts';

const chat = chatFixture();
const userMessage = userMessageFixture();
const answer: Message = {
  ...userMessage,
  messageId: '33333333-3333-4333-8333-333333333333',
  parentId: userMessage.messageId,
  role: 'assistant',
  content: '',
  status: 'streaming',
  createdAt: '2026-01-01T00:00:02.000Z',
};

async function connected() {
  const sockets: FakeSocket[] = [];
  const agents = new AgentsController({
    url: 'ws://test',
    getToken: async () => 'token',
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    connectivity: { isOnline: () => true, subscribe: () => () => {} },
  });
  agents.socket.start();
  const socket = sockets[0] as FakeSocket;
  socket.readyState = 1;
  socket.onopen?.({});
  await vi.advanceTimersByTimeAsync(0);
  socket.receive({
    type: 'ready',
    userId: 'u',
    limits: { maxFrameBytes: 1, maxConcurrent: 3, sendsPerMinute: 30 },
  });
  return { agents, socket, sockets };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AgentsController', () => {
  it('sends a first message without a chat and resolves the chat the server made', async () => {
    const { agents, socket } = await connected();
    const created = vi.fn();
    agents.setListEvents({
      chatCreated: created,
      chatUpdated: vi.fn(),
      activity: vi.fn(),
      usageChanged: vi.fn(),
    });
    const request = agents.send({ chatId: null, content: 'Olá', params: { temperature: 0.2 } });
    expect(request).not.toBeNull();
    const frame = socket.sent.at(-1);
    expect(frame).toMatchObject({
      type: 'chat.send',
      chatId: null,
      content: 'Olá',
      params: { temperature: 0.2 },
    });
    socket.receive({ type: 'chat.created', requestId: frame?.requestId, chat });
    await expect(request?.chat).resolves.toEqual(chat);
    expect(created).toHaveBeenCalledWith(chat);
    // The new chat is tracked: its messages and deltas land in the store.
    socket.receive({ type: 'message.created', chatId: CHAT_ID, message: userMessage });
    socket.receive({ type: 'message.created', chatId: CHAT_ID, message: answer });
    socket.receive({ type: 'message.delta', chatId: CHAT_ID, messageId: answer.messageId, delta: 'Oi' });
    socket.receive({ type: 'message.delta', chatId: CHAT_ID, messageId: answer.messageId, delta: '!' });
    await vi.advanceTimersByTimeAsync(20);
    expect(agents.store.getState()[CHAT_ID]?.byId[answer.messageId]?.content).toBe('Oi!');
  });

  it('rejects a first message the server refused (e.g. no provider)', async () => {
    const { agents, socket } = await connected();
    const request = agents.send({ chatId: null, content: 'Olá' });
    const requestId = socket.sent.at(-1)?.requestId;
    socket.receive({ type: 'error', requestId, code: 'NO_PROVIDER', message: 'No provider' });
    await expect(request?.chat).rejects.toEqual({ code: 'NO_PROVIDER', message: 'No provider' });
  });

  it('says whether a send was stored or refused, by its first answer', async () => {
    const { agents, socket } = await connected();
    agents.store.dispatch({ type: 'track-new', chatId: CHAT_ID });
    const refused = agents.send({ chatId: CHAT_ID, content: 'Olá' });
    const refusedId = socket.sent.at(-1)?.requestId;
    const stored = agents.send({ chatId: CHAT_ID, content: 'Olá' });
    const storedId = socket.sent.at(-1)?.requestId;
    socket.receive({
      type: 'error',
      requestId: refusedId,
      chatId: CHAT_ID,
      code: 'RATE_LIMITED',
      message: 'Wait',
    });
    await expect(refused?.stored).rejects.toEqual({ code: 'RATE_LIMITED', message: 'Wait' });
    // An error after the message was stored (the answer failed) does not take the send back.
    socket.receive({ type: 'message.created', requestId: storedId, chatId: CHAT_ID, message: userMessage });
    socket.receive({ type: 'error', requestId: storedId, chatId: CHAT_ID, code: 'INTERNAL', message: 'x' });
    await expect(stored?.stored).resolves.toBeUndefined();
  });

  it('applies a delta received before another frame first (order kept)', async () => {
    const { agents, socket } = await connected();
    agents.store.dispatch({ type: 'track-new', chatId: CHAT_ID });
    socket.receive({ type: 'message.created', chatId: CHAT_ID, message: answer });
    socket.receive({ type: 'message.delta', chatId: CHAT_ID, messageId: answer.messageId, delta: 'all' });
    socket.receive({
      type: 'message.done',
      chatId: CHAT_ID,
      messageId: answer.messageId,
      status: 'complete',
      finishReason: 'stop',
      usage: null,
    });
    expect(agents.store.getState()[CHAT_ID]?.byId[answer.messageId]).toMatchObject({
      content: 'all',
      status: 'complete',
    });
  });

  it('resubscribes the open chats after a reconnection', async () => {
    const { agents, socket, sockets } = await connected();
    const release = agents.openChat(CHAT_ID);
    socket.readyState = 3;
    socket.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(1_000);
    const next = sockets[1] as FakeSocket;
    next.readyState = 1;
    next.onopen?.({});
    await vi.advanceTimersByTimeAsync(0);
    next.receive({
      type: 'ready',
      userId: 'u',
      limits: { maxFrameBytes: 1, maxConcurrent: 3, sendsPerMinute: 30 },
    });
    expect(next.sent.find((f) => f.type === 'chat.subscribe')).toMatchObject({ chatId: CHAT_ID });
    release();
  });

  it('reports a chat whose answer ended while the socket was away', async () => {
    const { agents, socket } = await connected();
    agents.store.dispatch({
      type: 'page',
      chatId: CHAT_ID,
      messages: [userMessage, answer],
      cursor: null,
      older: false,
    });
    const stale = vi.fn();
    agents.onStale(stale);
    socket.receive({ type: 'chat.subscribed', chatId: CHAT_ID, streaming: [] });
    expect(stale).toHaveBeenCalledWith(CHAT_ID);
  });

  it('reloads an answer that ended after the page loaded it mid-stream and before any snapshot', async () => {
    const { agents, socket } = await connected();
    agents.store.dispatch({
      type: 'page',
      chatId: CHAT_ID,
      messages: [userMessage, { ...answer, content: 'The first half' }],
      cursor: null,
      older: false,
    });
    const stale = vi.fn();
    agents.onStale(stale);
    socket.receive({
      type: 'message.done',
      chatId: CHAT_ID,
      messageId: answer.messageId,
      status: 'complete',
      finishReason: 'stop',
      usage: null,
    });
    expect(stale).toHaveBeenCalledWith(CHAT_ID);
    // One brought up to date by its snapshot ends as it streamed: nothing to reload.
    stale.mockClear();
    const second = { ...answer, messageId: '44444444-4444-4444-8444-444444444444', content: 'Half' };
    agents.store.dispatch({ type: 'page', chatId: CHAT_ID, messages: [second], cursor: null, older: false });
    socket.receive({
      type: 'message.snapshot',
      chatId: CHAT_ID,
      message: { ...second, content: 'Half and more' },
    });
    socket.receive({
      type: 'message.done',
      chatId: CHAT_ID,
      messageId: second.messageId,
      status: 'complete',
      finishReason: 'stop',
      usage: null,
    });
    expect(stale).not.toHaveBeenCalled();
  });

  it('sends the decision on a tool call, and a tool call lands on its answer', async () => {
    const { agents, socket } = await connected();
    agents.store.dispatch({ type: 'track-new', chatId: CHAT_ID });
    socket.receive({ type: 'message.created', chatId: CHAT_ID, message: answer });
    socket.receive({
      type: 'tool.call',
      chatId: CHAT_ID,
      messageId: answer.messageId,
      toolCallId: 'call-1',
      tool: 'mcp:s1:open_ticket',
      title: 'Abrir chamado',
      input: { title: 'Impressora' },
      needsApproval: true,
      textBefore: '',
    });
    expect(agents.store.getState()[CHAT_ID]?.byId[answer.messageId]?.parts).toEqual([
      expect.objectContaining({ type: 'tool', toolCallId: 'call-1', status: 'awaiting_approval' }),
    ]);
    expect(agents.approveTool(CHAT_ID, 'call-1', 'allow', true)).toBe(true);
    expect(socket.sent.at(-1)).toMatchObject({
      type: 'tool.approve',
      chatId: CHAT_ID,
      toolCallId: 'call-1',
      decision: 'allow',
      remember: 'chat',
    });
    agents.approveTool(CHAT_ID, 'call-1', 'deny');
    expect(socket.sent.at(-1)).not.toHaveProperty('remember');
    expect(socket.sent.at(-1)).toMatchObject({ type: 'tool.approve', decision: 'deny' });
  });

  it('refuses to send while the socket is not ready', async () => {
    const { agents, socket } = await connected();
    socket.readyState = 3;
    socket.onclose?.({ code: 1006 });
    expect(agents.send({ chatId: CHAT_ID, content: 'x' })).toBeNull();
    expect(agents.stop(CHAT_ID)).toBe(false);
  });
});
