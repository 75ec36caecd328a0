import { describe, expect, it } from 'vitest';
import { chunkText, estimateTokens } from './chunker.ts';

const words = (n: number, w = 'lorem') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

describe('chunkText', () => {
  it('keeps each chunk under its heading path and never mixes two sections', () => {
    const text =
      '# Guide\n\nIntro text.\n\n## Install\n\nRun npm ci.\n\n## Use\n\nStart it.\n\n# Other\n\nElse.';
    expect(chunkText(text)).toEqual([
      { heading: 'Guide', text: 'Intro text.' },
      { heading: 'Guide › Install', text: 'Run npm ci.' },
      { heading: 'Guide › Use', text: 'Start it.' },
      { heading: 'Other', text: 'Else.' },
    ]);
  });

  it('cuts long sections near the size, repeating the end of the previous chunk', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}. ${words(60)}`);
    const chunks = chunkText(`# Big\n\n${paragraphs.join('\n\n')}`, { maxTokens: 400, overlapTokens: 120 });
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) expect(estimateTokens(c.text)).toBeLessThanOrEqual(420);
    for (let i = 1; i < chunks.length; i++) {
      const end = chunks[i - 1]!.text.slice(-300);
      expect(chunks[i]!.text.slice(0, 600)).toContain(end);
    }
    // Every paragraph is somewhere.
    const all = chunks.map((c) => c.text).join('\n');
    for (let i = 0; i < 40; i++) expect(all).toContain(`Paragraph ${i}.`);
  });

  it('splits a paragraph longer than a chunk at word ends', () => {
    const chunks = chunkText(words(2000), { maxTokens: 200, overlapTokens: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(800);
      expect(c.text).toMatch(/^lorem\d+( lorem\d+)*$/);
    }
  });

  it('does not read a # inside a code block as a heading, nor split the block at blank lines', () => {
    const chunks = chunkText('# Ops\n\n```sh\n# not a heading\n\necho hi\n```\n');
    expect(chunks).toEqual([{ heading: 'Ops', text: '```sh\n# not a heading\n\necho hi\n```' }]);
  });

  it('answers nothing for empty text', () => {
    expect(chunkText('  \n\n ')).toEqual([]);
  });
});
