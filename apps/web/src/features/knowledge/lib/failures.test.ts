import { beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../../../lib/i18n/index.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { knowledgeFailureText } from './failures.ts';

const t = (key: string, vars?: Readonly<Record<string, unknown>>) => translator.t(key, vars);

describe('why a document was not indexed', () => {
  beforeAll(async () => {
    await loadTestTexts();
  });

  it('names the bound it broke, with its limit, in Portuguese', () => {
    expect(knowledgeFailureText(t, { kind: 'pdf_too_large', limitMb: 64 }, 'The PDF unpacks…')).toBe(
      'O PDF descompactado passa de 64 MB; não foi lido.',
    );
  });

  it('says the embedding provider’s failure in words', () => {
    const text = knowledgeFailureText(
      t,
      { kind: 'provider', failure: { code: 'provider_failed', status: 500 } },
      'Failed after 3 attempts. Last error: fixture error 500',
    );
    expect(text).toContain('O modelo de embeddings falhou');
    expect(text).toContain('HTTP 500');
    expect(text).not.toContain('fixture error');
  });

  it('speaks Spanish too', async () => {
    await loadTestTexts('es');
    try {
      expect(knowledgeFailureText(t, { kind: 'unreadable' }, 'Invalid PDF structure')).toBe(
        'El archivo está dañado o no se pudo leer.',
      );
    } finally {
      await loadTestTexts();
    }
  });

  it('keeps the server’s line only when no reason is known', () => {
    expect(knowledgeFailureText(t, undefined, 'Invalid PDF structure')).toBe('Invalid PDF structure');
  });
});
