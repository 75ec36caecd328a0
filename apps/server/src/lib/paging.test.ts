import { describe, expect, it } from 'vitest';
import { createCursorCodec, escapeLike, keyedPage } from './paging.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const codec = createCursorCodec(SECRET);

/** The cursor with its payload changed but its MAC kept: what a client tampering with it sends. */
function tamper(cursor: string, edit: (key: unknown[]) => unknown[]): string {
  const [payload, mac] = cursor.split('.');
  const key = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as unknown[];
  return `${Buffer.from(JSON.stringify(edit(key))).toString('base64url')}.${mac}`;
}

describe('keyset cursors', () => {
  it('round-trip the sort key, including odd characters', () => {
    const key: [string, string] = ['Vendas & "Marketing" ñ', 'a1b2'];
    expect(codec.decode('users:displayName:asc', codec.encode('users:displayName:asc', key), 2)).toEqual(key);
    const three: [string, string, string] = ['true', '2026-01-02T03:04:05.000Z', 'x'];
    expect(codec.decode('chats', codec.encode('chats', three), 3)).toEqual(three);
  });

  it('a cursor made for one list or sort is refused by another', () => {
    const c = codec.encode('users:displayName:asc', ['a', 'b']);
    expect(codec.decode('users:displayName:desc', c, 2)).toBeUndefined();
    expect(codec.decode('departments:displayName:asc', c, 2)).toBeUndefined();
    expect(codec.decode('users:displayName:asc', c, 3)).toBeUndefined();
    expect(() => codec.parse('users:email:asc', c, 2)).toThrow('Invalid cursor');
    expect(codec.parse('users:email:asc', undefined, 2)).toBeUndefined();
  });

  it('refuses a tampered cursor with 400, even one that names the right list', () => {
    const c = codec.encode('users:createdAt:desc', ['2026-01-02 03:04:05+00', 'a@b.c']);
    const forged = tamper(c, ([tag, , id]) => [tag, 'not a timestamp', id]);
    expect(codec.decode('users:createdAt:desc', forged, 2)).toBeUndefined();
    expect(() => codec.parse('users:createdAt:desc', forged, 2)).toThrow(
      expect.objectContaining({ status: 400, code: 'BAD_REQUEST' }),
    );
    // Another instance's key makes other cursors.
    expect(createCursorCodec(`${SECRET}-other`).decode('users:createdAt:desc', c, 2)).toBeUndefined();
  });

  it('refuse anything not made by encode', () => {
    const good = codec.encode('t', ['a', 'b']);
    for (const c of [
      '',
      '%%%',
      '.',
      `${good}.x`,
      good.split('.')[0] ?? '',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('["t","a","b"]').toString('base64url'),
      `${Buffer.from('["t","a","b"]').toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`,
    ]) {
      expect(codec.decode('t', c, 2)).toBeUndefined();
    }
  });
});

describe('keyedPage', () => {
  it('gives the next key only when the query found a row past the limit', () => {
    const rows = [{ n: 1 }, { n: 2 }, { n: 3 }];
    const more = keyedPage(
      rows,
      2,
      9,
      (r) => [String(r.n), 'id'],
      (r) => r.n * 10,
    );
    expect(more).toEqual({ items: [10, 20], total: 9, nextKey: ['2', 'id'] });
    expect(
      keyedPage(
        rows,
        3,
        3,
        (r) => [String(r.n)],
        (r) => r.n,
      ),
    ).toEqual({ items: [1, 2, 3], total: 3 });
    const page = codec.page('t', more, (n) => `#${n}`);
    expect(page.items).toEqual(['#10', '#20']);
    expect(codec.decode('t', page.nextCursor ?? '', 2)).toEqual(['2', 'id']);
  });
});

describe('escapeLike', () => {
  it('LIKE wildcards in user input match themselves', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
});
