import { describe, expect, it } from 'vitest';
import { firstCodeBlock, selectionMessage } from './prompt.ts';

const labels = {
  header: (file: string, language: string, lines: string) => `${file} (${language}) ${lines}:`,
  truncated: (shown: number, total: number) => `cut ${shown}/${total}`,
};
const selection = {
  fileName: 'src/a.ts',
  languageId: 'typescript',
  startLine: 3,
  endLine: 5,
  text: 'const a = 1;',
};

describe('the message about a selection', () => {
  it('carries the question, file name, language, line range and the code', () => {
    const m = selectionMessage('  What does it do? ', selection, labels);
    expect(m).toEqual({
      content: 'What does it do?\n\nsrc/a.ts (typescript) 3-5:\n```typescript\nconst a = 1;\n```',
      truncated: false,
    });
    expect(selectionMessage('Q', { ...selection, endLine: 3 }, labels).content).toContain(' 3:\n');
  });

  it('fences code that itself holds backticks with a longer fence', () => {
    const m = selectionMessage('Q', { ...selection, text: 'md = "````x````"' }, labels);
    expect(m.content).toContain('`````typescript\nmd = "````x````"\n`````');
  });

  it('cuts a large selection and says so', () => {
    const m = selectionMessage('Q', { ...selection, text: 'x'.repeat(30) }, labels, 10);
    expect(m.truncated).toBe(true);
    expect(m.content).toContain(`\n${'x'.repeat(10)}\n`);
    expect(m.content).not.toContain('x'.repeat(11));
    expect(m.content.endsWith('cut 10/30')).toBe(true);
  });
});

describe('the code of an edit answer', () => {
  it('is the first fenced block', () => {
    expect(firstCodeBlock('Here:\n\n```ts\nconst b = 2;\nconst c = 3;\n```\n\n```js\nno\n```')).toBe(
      'const b = 2;\nconst c = 3;',
    );
    expect(firstCodeBlock('~~~\nx\n~~~')).toBe('x');
    expect(firstCodeBlock('````\n```inner```\n````')).toBe('```inner```');
  });

  it('is undefined when the answer has none', () => {
    expect(firstCodeBlock('No code, sorry. `inline` only.')).toBeUndefined();
  });
});
