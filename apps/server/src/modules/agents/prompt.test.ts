import { describe, expect, it } from 'vitest';
import type { AttachmentForModel, ContextMessage } from '../chats/index.ts';
import {
  type ExtractedText,
  MAX_INLINE_CHARS,
  modelMessages,
  needsExtraction,
  systemPrompt,
} from './prompt.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

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
    expect(out.messages).toEqual([
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
    const [anthropic] = modelMessages([m], files, 'anthropic').messages;
    const parts = anthropic?.content as Array<{ type: string; text?: string; mediaType?: string }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image', 'text', 'file', 'text']);
    expect(parts[2]?.text).toContain('# Notes');
    expect(parts[3]?.mediaType).toBe('application/pdf');
    expect(parts[4]?.text).toContain('cannot read');

    const [ollama] = modelMessages([m], files, 'ollama').messages;
    const oparts = ollama?.content as Array<{ type: string; text?: string }>;
    expect(oparts.map((p) => p.type)).toEqual(['text', 'image', 'text', 'text', 'text']);
    expect(oparts[3]?.text).toContain('d.pdf');
  });

  it('gives models that cannot read PDF or DOCX the text read from them, cut at the cap with a note', () => {
    const files = new Map([
      ['p', file('p', 'd.pdf', 'application/pdf', '%PDF-1.4')],
      ['w', file('w', 'long.docx', DOCX, 'PK')],
      ['b', file('b', 'bad.docx', DOCX, 'PK')],
    ]);
    const extracted = new Map<string, ExtractedText>([
      ['p', { text: 'Refunds take seven days.', length: 24 }],
      ['w', { text: 'w'.repeat(MAX_INLINE_CHARS), length: MAX_INLINE_CHARS + 5 }],
      ['b', { error: 'The DOCX unpacks to more than 32 MB of text markup; it is not read' }],
    ]);
    const m = msg({ role: 'user', content: 'Read', attachmentIds: ['p', 'w', 'b'] });
    const { messages, readings } = modelMessages([m], files, 'openai-compatible', extracted);
    const parts = messages[0]?.content as Array<{ type: string; text?: string }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'text', 'text', 'text']);
    expect(parts[1]?.text).toContain('Text read from the attached file "d.pdf"');
    expect(parts[1]?.text).toContain('Refunds take seven days.');
    expect(parts[2]?.text).toContain('[… cut: only the first 200,000 of 200,005 characters');
    expect(parts[3]?.text).toContain('cannot read: The DOCX unpacks to more than 32 MB');
    expect(readings).toEqual([
      { attachmentId: 'w', name: 'long.docx', reading: 'partial' },
      { attachmentId: 'b', name: 'bad.docx', reading: 'unread' },
    ]);
    // A provider that reads PDF gets the file itself; DOCX is text for everyone.
    expect(needsExtraction(files.get('p')!, 'anthropic')).toBe(false);
    expect(needsExtraction(files.get('p')!, 'ollama')).toBe(true);
    expect(needsExtraction(files.get('w')!, 'anthropic')).toBe(true);
  });

  it("reports only the last question's files", () => {
    const files = new Map([['x', file('x', 's.xlsx', 'application/vnd.ms-excel', 'bin')]]);
    const branch = [
      msg({ role: 'user', content: 'Q1', attachmentIds: ['x'] }),
      msg({ role: 'assistant', content: 'A1' }),
      msg({ role: 'user', content: 'Q2' }),
    ];
    expect(modelMessages(branch, files, 'openai').readings).toEqual([]);
    expect(modelMessages(branch.slice(0, 1), files, 'openai').readings).toEqual([
      { attachmentId: 'x', name: 's.xlsx', reading: 'unread' },
    ]);
  });
});
