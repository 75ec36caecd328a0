import { describe, expect, it } from 'vitest';
import { formatSize } from './format.ts';

describe('formatSize', () => {
  it('writes a file size in the reader’s language', () => {
    expect(formatSize(1536, 'pt-BR')).toBe('1,5 kB');
    expect(formatSize(1536, 'en')).toBe('1.5 kB');
    expect(formatSize(2.5 * 1024 * 1024, 'es')).toBe('2,5 MB');
    expect(formatSize(13 * 1024 + 300, 'pt-BR')).toBe('13 kB');
    expect(formatSize(20 * 1024 * 1024, 'en')).toBe('20 MB');
    expect(formatSize(812, 'pt-BR')).toBe('812 bytes');
    expect(formatSize(70, 'en')).toBe('70 bytes');
  });
});
