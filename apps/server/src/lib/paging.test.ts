import { describe, expect, it } from 'vitest';
import { decodeKeyset, encodeKeyset, escapeLike, parseCursor } from './paging.ts';

describe('keyset cursors', () => {
  it('round-trip the sort key, including odd characters', () => {
    const key: [string, string] = ['Vendas & "Marketing" ñ', 'a1b2'];
    expect(decodeKeyset('users:displayName:asc', encodeKeyset('users:displayName:asc', key))).toEqual(key);
  });

  it('a cursor made for one list or sort is refused by another', () => {
    const c = encodeKeyset('users:displayName:asc', ['a', 'b']);
    expect(decodeKeyset('users:displayName:desc', c)).toBeUndefined();
    expect(decodeKeyset('departments:displayName:asc', c)).toBeUndefined();
    expect(() => parseCursor('users:email:asc', c)).toThrow('Invalid cursor');
    expect(parseCursor('users:email:asc', undefined)).toBeUndefined();
  });

  it('refuse anything not made by encodeKeyset', () => {
    for (const c of [
      '',
      '%%%',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('["t",1,"x"]').toString('base64url'),
      Buffer.from('["a","b"]').toString('base64url'),
    ]) {
      expect(decodeKeyset('t', c)).toBeUndefined();
    }
  });

  it('LIKE wildcards in user input match themselves', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
});
