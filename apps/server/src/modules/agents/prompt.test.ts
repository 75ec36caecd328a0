import { describe, expect, it } from 'vitest';
import type { AttachmentForModel, ContextMessage } from '../chats/index.ts';
import { modelMessages, systemPrompt } from './prompt.ts';

const msg = (m: Partial<ContextMessage> & Pick<ContextMessage, 'role' | 'content'>): ContextMessage => ({
  messageId: Math.random().toString(36),
  attachmentIds: [],
  ...m,
});
const file = (id: string, name: string, contentType: string, data: string | Buffer): AttachmentForModel => {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return { attachmentId: id, name, contentType, size: bytes.length, data: bytes };
};
describe('systemPrompt', () => {
  it("joins the santito's and the chat's instructions, skipping blanks", () => {
    expect(systemPrompt('Be a fox.', { instructions: 'Be brief.' })).toBe('Be a fox.\n\nBe brief.');
    expect(systemPrompt('  ', { instructions: 'Only this.' })).toBe('Only this.');
    expect(systemPrompt(undefined, {})).toBeUndefined();
  });
});

describe('modelMessages', () => {
  it('keeps the alternation and leaves out empty answers', () => {
    const out = modelMessages(
      [
        msg({ role: 'user', content: 'Q1' }),
        msg({ role: 'assistant', content: '' }),
        msg({ role: 'user', content: 'Q2' }),
        msg({ role: 'assistant', content: 'A2' }),
      ],
      new Map(),
      'openai',
    );
    expect(out).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'user', content: 'Q2' },
      { role: 'assistant', content: 'A2' },
    ]);
  });

  it('sends images as image parts, inlines text, PDFs to providers that read them, and names the rest', () => {
    const files = new Map([
      ['i', file('i', 'a.png', 'image/png', Buffer.from([1, 2, 3]))],
      ['t', file('t', 'n.md', 'text/markdown', '# Notes')],
      ['p', file('p', 'd.pdf', 'application/pdf', '%PDF-1.4')],
      ['x', file('x', 's.xlsx', 'application/vnd.ms-excel', 'bin')],
    ]);
    const m = msg({
      role: 'user',
      content: 'See files',
      attachmentIds: ['i', 't', 'p', 'x'],
    });
    const [anthropic] = modelMessages([m], files, 'anthropic');
    const parts = anthropic?.content as Array<{ type: string; text?: string; mediaType?: string }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image', 'text', 'file', 'text']);
    expect(parts[2]?.text).toContain('# Notes');
    expect(parts[3]?.mediaType).toBe('application/pdf');
    expect(parts[4]?.text).toContain('cannot read');

    const [ollama] = modelMessages([m], files, 'ollama');
    const oparts = ollama?.content as Array<{ type: string; text?: string }>;
    expect(oparts.map((p) => p.type)).toEqual(['text', 'image', 'text', 'text', 'text']);
    expect(oparts[3]?.text).toContain('d.pdf');
  });
});
