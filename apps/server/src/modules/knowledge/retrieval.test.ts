import { describe, expect, it } from 'vitest';
import { keywordQuery } from './retrieval.ts';

describe('keywordQuery', () => {
  it('ORs a question’s folded words, once each, and nothing that could break the syntax', () => {
    expect(keywordQuery('Como peço Férias? férias & (ferias) | !x')).toBe('como | peco | ferias');
    expect(keywordQuery('? !')).toBeUndefined();
  });

  it('leaves common words out while others remain', () => {
    const common = new Set(['how', 'do', 'the']);
    expect(keywordQuery('How do I set up the VPN?', common)).toBe('set | up | vpn');
  });

  it('keeps common words when the question has nothing else', () => {
    expect(keywordQuery('How do the', new Set(['how', 'do', 'the']))).toBe('how | do | the');
  });
});
