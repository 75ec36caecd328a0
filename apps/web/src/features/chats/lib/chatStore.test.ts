import type { Message, ServerFrame } from '@assistente/contracts';
import { describe, expect, it, vi } from 'vitest';
import { type ChatsState, chatReducer, createDeltaBatcher, streamingIds } from './chatStore.ts';
import { ROOT, visibleThread } from './thread.ts';

const CHAT = 'c1';
let clock = 0;

function msg(id: string, patch: Partial<Message> = {}): Message {
  clock += 1;
  return {
    messageId: id,
    chatId: CHAT,
    parentId: null,
    role: 'user',
    content: id,
    status: 'complete',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(),
    ...patch,
  };
}

/** The store after one websocket frame. */
const onFrame = (state: ChatsState, frame: ServerFrame): ChatsState =>
  chatReducer(state, { type: 'frame', frame });

function loaded(messages: Message[], cursor: string | null = null): ChatsState {
  return chatReducer({}, { type: 'page', chatId: CHAT, messages, cursor, older: false });
}

function thread(state: ChatsState) {
  const t = state[CHAT];
  if (!t) throw new Error('no thread');
  return t;
}

describe('chatReducer: streaming', () => {
  it('appends deltas to the answer being generated, batched per chat and message', () => {
    const q = msg('q');
    const a = msg('a', { role: 'assistant', parentId: 'q', content: '', status: 'streaming' });
    let state = loaded([q]);
    state = onFrame(state, { type: 'message.created', chatId: CHAT, message: a });
    state = chatReducer(state, {
      type: 'deltas',
      deltas: [
        { chatId: CHAT, messageId: 'a', text: 'Hel' },
        { chatId: CHAT, messageId: 'a', text: 'lo' },
        { chatId: 'other', messageId: 'x', text: 'ignored' },
      ],
    });
    expect(thread(state).byId.a?.content).toBe('Hello');
    expect(streamingIds(thread(state))).toEqual(['a']);
    state = onFrame(state, {
      type: 'message.done',
      chatId: CHAT,
      messageId: 'a',
      status: 'complete',
      finishReason: 'stop',
      usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      attachmentReadings: [{ attachmentId: 'f', name: 'a.pdf', reading: 'unread' }],
      usedMemory: true,
    });
    expect(thread(state).byId.a).toMatchObject({
      status: 'complete',
      usage: { totalTokens: 5 },
      attachmentReadings: [{ attachmentId: 'f', name: 'a.pdf', reading: 'unread' }],
      // The answer says it used the person's memories as soon as it ends.
      usedMemory: true,
    });
    // A finished answer takes no more text.
    const after = chatReducer(state, {
      type: 'deltas',
      deltas: [{ chatId: CHAT, messageId: 'a', text: '!' }],
    });
    expect(after).toBe(state);
  });

  it('keeps finished messages as the same objects (memoised rendering)', () => {
    const q = msg('q');
    const a = msg('a', { role: 'assistant', parentId: 'q', content: '', status: 'streaming' });
    let state = loaded([q, a]);
    state = onFrame(state, { type: 'message.snapshot', chatId: CHAT, message: a });
    const before = thread(state).byId.q;
    state = chatReducer(state, { type: 'deltas', deltas: [{ chatId: CHAT, messageId: 'a', text: 'x' }] });
    expect(thread(state).byId.q).toBe(before);
  });

  it('holds the deltas of an answer read from the REST list until its snapshot arrives', () => {
    const q = msg('q');
    // Flushed to the database a little behind the live stream.
    const a = msg('a', { role: 'assistant', parentId: 'q', content: 'Hel', status: 'streaming' });
    let state = loaded([q, a]);
    state = chatReducer(state, { type: 'deltas', deltas: [{ chatId: CHAT, messageId: 'a', text: 'p!' }] });
    expect(thread(state).byId.a?.content).toBe('Hel');
    state = onFrame(state, { type: 'message.snapshot', chatId: CHAT, message: { ...a, content: 'Hello' } });
    state = chatReducer(state, {
      type: 'deltas',
      deltas: [{ chatId: CHAT, messageId: 'a', text: ', world' }],
    });
    expect(thread(state).byId.a?.content).toBe('Hello, world');
  });

  it('keeps the live text when a REST page arrives with an older copy of a streaming answer', () => {
    const q = msg('q');
    const a = msg('a', { role: 'assistant', parentId: 'q', content: '', status: 'streaming' });
    let state = chatReducer({}, { type: 'track-new', chatId: CHAT });
    state = onFrame(state, { type: 'message.created', chatId: CHAT, message: q });
    state = onFrame(state, { type: 'message.created', chatId: CHAT, message: a });
    state = chatReducer(state, {
      type: 'deltas',
      deltas: [{ chatId: CHAT, messageId: 'a', text: 'Live text' }],
    });
    state = chatReducer(state, {
      type: 'page',
      chatId: CHAT,
      messages: [q, { ...a, content: 'Live' }],
      cursor: null,
      older: false,
    });
    expect(thread(state).byId.a?.content).toBe('Live text');
    // But a final version from the server wins.
    state = chatReducer(state, {
      type: 'page',
      chatId: CHAT,
      messages: [q, { ...a, content: 'Live text, done', status: 'complete' }],
      cursor: null,
      older: false,
    });
    expect(thread(state).byId.a).toMatchObject({ content: 'Live text, done', status: 'complete' });
  });

  it('records an error answer with its code and an error frame about the chat', () => {
    const a = msg('a', { role: 'assistant', content: 'Part', status: 'streaming' });
    let state = loaded([a]);
    state = onFrame(state, { type: 'message.snapshot', chatId: CHAT, message: a });
    state = onFrame(state, {
      type: 'message.done',
      chatId: CHAT,
      messageId: 'a',
      status: 'error',
      finishReason: 'error',
      usage: null,
      error: {
        code: 'PROVIDER_ERROR',
        message: 'The provider failed',
        reason: { code: 'provider_failed', status: 500 },
      },
    });
    expect(thread(state).byId.a).toMatchObject({
      status: 'error',
      content: 'Part',
      error: 'The provider failed',
      errorReason: { code: 'provider_failed', status: 500 },
    });
    expect(thread(state).errorCodes.a).toBe('PROVIDER_ERROR');
    state = onFrame(state, { type: 'error', chatId: CHAT, code: 'NO_PROVIDER', message: 'none' });
    expect(thread(state).lastError).toEqual({ code: 'NO_PROVIDER', message: 'none' });
    state = chatReducer(state, { type: 'dismiss-error', chatId: CHAT });
    expect(thread(state).lastError).toBeNull();
  });

  it('ignores frames of chats that are not open', () => {
    const state = loaded([]);
    const next = onFrame(state, {
      type: 'message.created',
      chatId: 'elsewhere',
      message: msg('z', { chatId: 'elsewhere' }),
    });
    expect(next).toBe(state);
  });

  it('prepends older pages and keeps the cursor of the oldest one', () => {
    const [m1, m2, m3, m4] = [msg('m1'), msg('m2'), msg('m3'), msg('m4')];
    let state = loaded([m3 as Message, m4 as Message], 'm3');
    expect(thread(state).olderCursor).toBe('m3');
    state = chatReducer(state, {
      type: 'page',
      chatId: CHAT,
      messages: [m1 as Message, m2 as Message],
      cursor: null,
      older: true,
    });
    expect(thread(state).ids).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(thread(state).olderCursor).toBeNull();
  });
});

describe('visibleThread: branches', () => {
  it('shows the branch of the newest message and counts siblings', () => {
    const q = msg('q');
    const a1 = msg('a1', { role: 'assistant', parentId: 'q' });
    const a2 = msg('a2', { role: 'assistant', parentId: 'q' });
    const view = visibleThread(thread(loaded([q, a1, a2])));
    expect(view.path.map((m) => m.messageId)).toEqual(['q', 'a2']);
    expect(view.siblings.a2).toMatchObject({ index: 2, count: 2, prev: 'a1', next: null, parentKey: 'q' });
    expect(view.leafId).toBe('a2');
  });

  it('follows a chosen branch down to its newest message', () => {
    // q1 → a1 → q2 → a2 ; edit of q1 → q1b → a1b (newest)
    const q1 = msg('q1');
    const a1 = msg('a1', { role: 'assistant', parentId: 'q1' });
    const q2 = msg('q2', { parentId: 'a1' });
    const a2 = msg('a2', { role: 'assistant', parentId: 'q2' });
    const q1b = msg('q1b');
    const a1b = msg('a1b', { role: 'assistant', parentId: 'q1b' });
    let state = loaded([q1, a1, q2, a2, q1b, a1b]);
    expect(visibleThread(thread(state)).path.map((m) => m.messageId)).toEqual(['q1b', 'a1b']);
    expect(visibleThread(thread(state)).siblings.q1b).toMatchObject({ index: 2, count: 2, parentKey: ROOT });
    state = chatReducer(state, { type: 'select', chatId: CHAT, parentKey: ROOT, childId: 'q1' });
    const view = visibleThread(thread(state));
    expect(view.path.map((m) => m.messageId)).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(view.leafId).toBe('a2');
  });

  it('shows a new message at once, whatever branch was chosen', () => {
    const q = msg('q');
    const a1 = msg('a1', { role: 'assistant', parentId: 'q' });
    const a2 = msg('a2', { role: 'assistant', parentId: 'q' });
    let state = loaded([q, a1, a2]);
    state = chatReducer(state, { type: 'select', chatId: CHAT, parentKey: 'q', childId: 'a1' });
    expect(visibleThread(thread(state)).leafId).toBe('a1');
    const a3 = msg('a3', { role: 'assistant', parentId: 'q', status: 'streaming', content: '' });
    state = onFrame(state, { type: 'message.created', chatId: CHAT, message: a3 });
    expect(visibleThread(thread(state)).leafId).toBe('a3');
  });

  it('treats a message whose parent is not loaded yet as a root', () => {
    const late = msg('late', { parentId: 'not-loaded' });
    expect(visibleThread(thread(loaded([late]))).path.map((m) => m.messageId)).toEqual(['late']);
  });
});

describe('createDeltaBatcher', () => {
  it('delivers the deltas of one frame together, or at once on flush', () => {
    const deliver = vi.fn();
    let run: (() => void) | null = null;
    const batcher = createDeltaBatcher(deliver, (fn) => {
      run = fn;
    });
    batcher.push({ chatId: 'c', messageId: 'm', text: 'a' });
    batcher.push({ chatId: 'c', messageId: 'm', text: 'b' });
    expect(deliver).not.toHaveBeenCalled();
    (run as unknown as () => void)();
    expect(deliver).toHaveBeenCalledWith([
      { chatId: 'c', messageId: 'm', text: 'a' },
      { chatId: 'c', messageId: 'm', text: 'b' },
    ]);
    batcher.push({ chatId: 'c', messageId: 'm', text: 'c' });
    batcher.flush();
    expect(deliver).toHaveBeenCalledTimes(2);
  });
});

describe('chatReducer: tool calls', () => {
  const streamingAnswer = () => {
    const q = msg('q');
    const a = msg('a', { role: 'assistant', parentId: 'q', content: 'Vou abrir.', status: 'streaming' });
    return loaded([q, a]);
  };

  it('adds the text before a call and the call, then its result', () => {
    let state = streamingAnswer();
    state = onFrame(state, {
      type: 'tool.call',
      chatId: CHAT,
      messageId: 'a',
      toolCallId: 't1',
      tool: 'mcp:s1:open_ticket',
      title: 'Abrir chamado',
      input: { title: 'Impressora' },
      needsApproval: false,
      textBefore: 'Vou abrir.',
    });
    expect(thread(state).byId.a?.parts).toEqual([
      { type: 'text', text: 'Vou abrir.' },
      {
        type: 'tool',
        toolCallId: 't1',
        tool: 'mcp:s1:open_ticket',
        title: 'Abrir chamado',
        input: { title: 'Impressora' },
        status: 'running',
      },
    ]);
    state = onFrame(state, {
      type: 'tool.result',
      chatId: CHAT,
      messageId: 'a',
      toolCallId: 't1',
      status: 'done',
      output: '#42',
      durationMs: 120,
    });
    expect(thread(state).byId.a?.parts?.[1]).toMatchObject({
      status: 'done',
      output: '#42',
      durationMs: 120,
    });
  });

  it('puts the files a call made on its step when the result arrives', () => {
    let state = streamingAnswer();
    state = onFrame(state, {
      type: 'tool.call',
      chatId: CHAT,
      messageId: 'a',
      toolCallId: 't1',
      tool: 'builtin:code_interpreter',
      title: 'Code interpreter',
      input: { lang: 'py', code: 'print(1)' },
      needsApproval: false,
      textBefore: '',
    });
    const chart = {
      attachmentId: 'att-1',
      chatId: CHAT,
      name: 'chart.png',
      contentType: 'image/png',
      size: 2048,
      createdAt: '2026-01-01T00:00:00.000Z',
      url: `/api/v1/chats/${CHAT}/attachments/att-1`,
    };
    state = onFrame(state, {
      type: 'tool.result',
      chatId: CHAT,
      messageId: 'a',
      toolCallId: 't1',
      status: 'done',
      output: 'stdout:\n1',
      durationMs: 900,
      files: [chart],
    });
    expect(thread(state).byId.a?.parts?.[0]).toMatchObject({
      tool: 'builtin:code_interpreter',
      status: 'done',
      output: 'stdout:\n1',
      files: [chart],
    });
  });

  it('a call waiting for the person pauses the answer: it is no longer generating', () => {
    let state = streamingAnswer();
    state = onFrame(state, {
      type: 'tool.call',
      chatId: CHAT,
      messageId: 'a',
      toolCallId: 't1',
      tool: 'mcp:s1:open_ticket',
      title: 'Abrir chamado',
      input: {},
      needsApproval: true,
      textBefore: '',
    });
    expect(thread(state).byId.a?.parts).toEqual([expect.objectContaining({ status: 'awaiting_approval' })]);
    state = onFrame(state, {
      type: 'message.done',
      chatId: CHAT,
      messageId: 'a',
      status: 'awaiting_approval',
      finishReason: 'tool_calls',
      usage: null,
    });
    expect(thread(state).byId.a?.status).toBe('awaiting_approval');
    expect(streamingIds(thread(state))).toEqual([]);
  });
});
