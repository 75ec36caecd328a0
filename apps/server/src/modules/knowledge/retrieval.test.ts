import { describe, expect, it } from 'vitest';
import { keywordQuery, wordPairs } from './retrieval.ts';

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

describe('wordPairs', () => {
  it('asks for two of the words, of the first eight', () => {
    expect(wordPairs('a | b | c')).toBe('(a & b) | (a & c) | (b & c)');
    expect(wordPairs('vpn')).toBeUndefined();
    const ten = 'w0 | w1 | w2 | w3 | w4 | w5 | w6 | w7 | w8 | w9';
    expect(wordPairs(ten)?.split(' | ')).toHaveLength(28);
    expect(wordPairs(ten)).not.toContain('w8');
  });
});
