import { describe, expect, it } from 'vitest';
import {
  branchedChatGpt,
  chatGptConversation,
  claudeConversation,
  simpleChatGpt,
  simpleClaude,
  T0,
} from '../../test/chat-exports.ts';
import {
  detectFormat,
  type ImportedConversation,
  type ImportedMessage,
  parseConversation,
  timeline,
} from './import-formats.ts';

const MAX = 10_000;

function ok(format: 'chatgpt' | 'claude', element: unknown): ImportedConversation {
  const parsed = parseConversation(format, element, MAX);
  if (!parsed.ok) throw new Error(`failed: ${parsed.reason}`);
  return parsed.conversation;
}

/** `key ← parentKey: content` per message, the tree at a glance. */
const tree = (c: ImportedConversation) =>
  c.messages.map((m) => `${m.key} ← ${m.parentKey ?? '-'} ${m.role}: ${m.content}`);

describe('detectFormat', () => {
  it('tells ChatGPT (mapping) from Claude (chat_messages) and from anything else', () => {
    expect(detectFormat(simpleChatGpt('c', 'T'))).toBe('chatgpt');
    expect(detectFormat(simpleClaude('u', 'T'))).toBe('claude');
    for (const other of [null, 1, 'x', [], {}, { title: 'x' }, { mapping: [] }])
      expect(detectFormat(other)).toBeNull();
  });
});

describe('ChatGPT conversations', () => {
  it('keeps the branches: a regenerated answer and an edited question are siblings under one parent', () => {
    const c = ok('chatgpt', branchedChatGpt('conv-1'));
    expect(c.source).toBe('chatgpt:conv-1');
    expect(c.title).toBe('Capitais');
    expect(c.createdAt?.toISOString()).toBe(new Date(T0 * 1000).toISOString());
    expect(tree(c)).toEqual([
      // The hidden system message is left out: the first question is a root.
      'u1 ← - user: Qual a capital da França?',
      'a1 ← u1 assistant: Paris.',
      'a1b ← u1 assistant: A capital da França é Paris.',
      // The tool call and its output are left out; the answer after them hangs from the question.
      'u2 ← a1b user: E da Itália?',
      'a2 ← u2 assistant: Roma.',
      'u2b ← a1b user: [image]\n\nE da Espanha?',
      'a3 ← u2b assistant: Madri.',
    ]);
    expect(c.messages[0]?.createdAt?.getTime()).toBe((T0 + 10.5) * 1000);
  });

  it('folds an answer cut by a tool call into one message, and skips hidden, empty and tool messages', () => {
    const c = ok(
      'chatgpt',
      chatGptConversation({
        id: 'c2',
        title: '',
        createTime: T0,
        updateTime: T0,
        nodes: [
          {
            id: 'ctx',
            parent: null,
            role: 'user',
            contentType: 'user_editable_context',
            text: 'about me',
            time: T0,
          },
          { id: 'u', parent: 'ctx', role: 'user', text: 'Pesquise o clima', time: T0 + 1 },
          { id: 'a0', parent: 'u', role: 'assistant', text: 'Vou pesquisar.', time: T0 + 2 },
          {
            id: 'call',
            parent: 'a0',
            role: 'assistant',
            text: '{"q":"clima"}',
            time: T0 + 3,
            recipient: 'browser',
          },
          {
            id: 'out',
            parent: 'call',
            role: 'tool',
            contentType: 'tether_browsing_display',
            text: '...',
            time: T0 + 4,
          },
          { id: 'think', parent: 'out', role: 'assistant', contentType: 'thoughts', parts: [], time: T0 + 5 },
          { id: 'a1', parent: 'think', role: 'assistant', text: 'Está ensolarado.', time: T0 + 6 },
          { id: 'blank', parent: 'a1', role: 'user', text: '   ', time: T0 + 7 },
          { id: 'hid', parent: 'blank', role: 'user', text: 'secret', time: T0 + 8, hidden: true },
        ],
      }),
    );
    expect(tree(c)).toEqual([
      'u ← - user: Pesquise o clima',
      'a0 ← u assistant: Vou pesquisar.\n\nEstá ensolarado.',
    ]);
  });

  it('fails a conversation with nothing to show, too many messages, or no id, with its reason', () => {
    const empty = parseConversation(
      'chatgpt',
      chatGptConversation({ id: 'e', title: 'Vazia', createTime: T0, updateTime: T0, nodes: [] }),
      MAX,
    );
    expect(empty).toMatchObject({ ok: false, title: 'Vazia', reasonCode: 'empty' });
    expect(parseConversation('chatgpt', simpleChatGpt('m', 'Muitas'), 1)).toMatchObject({
      ok: false,
      title: 'Muitas',
      reasonCode: 'too_many_messages',
    });
    const { id: _id, conversation_id: _cid, ...noId } = simpleChatGpt('x', 'Sem id');
    expect(parseConversation('chatgpt', noId, MAX)).toMatchObject({ ok: false, reasonCode: 'invalid' });
    expect(parseConversation('chatgpt', 'x', MAX)).toMatchObject({ ok: false, reasonCode: 'invalid' });
  });

  it('survives a parent cycle: the nodes only reachable through it are dropped', () => {
    const conv = simpleChatGpt('cyc', 'Ciclo');
    const mapping = conv.mapping as Record<string, Record<string, unknown>>;
    mapping.loop1 = { id: 'loop1', parent: 'loop2', children: ['loop2'], message: null };
    mapping.loop2 = { id: 'loop2', parent: 'loop1', children: ['loop1'], message: null };
    expect(ok('chatgpt', conv).messages).toHaveLength(2);
  });
});

describe('Claude conversations', () => {
  it('reads an older export as a chain in order', () => {
    const c = ok('claude', simpleClaude('uuid-1', 'Odisseia'));
    expect(c.source).toBe('claude:uuid-1');
    expect(tree(c)).toEqual([
      'uuid-1-1 ← - user: Resuma a Odisseia.',
      'uuid-1-2 ← uuid-1-1 assistant: Ulisses volta para casa.',
    ]);
    expect(c.updatedAt?.toISOString()).toBe('2024-03-01T10:05:00.000Z');
  });

  it('keeps branches through parent_message_uuid, and notes attached files', () => {
    const ROOT = '00000000-0000-4000-8000-000000000000';
    const c = ok(
      'claude',
      claudeConversation({
        uuid: 'b',
        name: '',
        createdAt: '2024-03-01T10:00:00Z',
        updatedAt: '2024-03-01T11:00:00Z',
        messages: [
          {
            uuid: 'q',
            sender: 'human',
            text: 'Leia isto',
            at: '2024-03-01T10:00:01Z',
            parent: ROOT,
            files: ['a.pdf'],
          },
          { uuid: 'r1', sender: 'assistant', text: 'Primeira', at: '2024-03-01T10:00:02Z', parent: 'q' },
          { uuid: 'r2', sender: 'assistant', text: 'Segunda', at: '2024-03-01T10:00:03Z', parent: 'q' },
          { uuid: 'q2', sender: 'human', text: 'E agora?', at: '2024-03-01T10:00:04Z', parent: 'r2' },
        ],
      }),
    );
    expect(c.title).toBe('');
    expect(tree(c)).toEqual([
      'q ← - user: Leia isto\n\n[file: a.pdf]',
      'r1 ← q assistant: Primeira',
      'r2 ← q assistant: Segunda',
      'q2 ← r2 user: E agora?',
    ]);
  });
});

describe('timeline', () => {
  const msg = (key: string, parentKey: string | null, at: number | null): ImportedMessage => ({
    key,
    parentKey,
    role: 'user',
    content: key,
    createdAt: at === null ? null : new Date(at),
  });

  it('keeps the source dates when they are ordered and distinct', () => {
    const dates = timeline([msg('a', null, 1000), msg('b', 'a', 2000), msg('c', 'a', 3000)], new Date(0));
    expect(dates.map((d) => d.getTime())).toEqual([1000, 2000, 3000]);
  });

  it('makes ties strictly increasing and a child later than its parent, moving dates the least', () => {
    const dates = timeline(
      [
        msg('a', null, 5000),
        msg('b', 'a', 5000),
        msg('c', 'a', 5000),
        msg('d', 'b', 1000),
        msg('e', null, 9000),
      ],
      new Date(0),
    );
    const [a, b, c, d, e] = dates.map((x) => x.getTime());
    expect(new Set(dates.map((x) => x.getTime())).size).toBe(5);
    expect(b).toBeGreaterThan(a!);
    expect(c).toBeGreaterThan(a!);
    expect(d).toBeGreaterThan(b!);
    expect(Math.max(a!, b!, c!, d!)).toBeLessThan(5010);
    expect(e).toBe(9000);
  });

  it('dates a message without a date after the one before it, and a first one at the fallback', () => {
    const dates = timeline([msg('a', null, null), msg('b', 'a', null)], new Date(7000));
    expect(dates.map((d) => d.getTime())).toEqual([7000, 7001]);
  });
});
