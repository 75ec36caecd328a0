import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.ts';

function fakeDb(initial: Record<string, { active: boolean; uid: string }>) {
  const rows = new Map(Object.entries(initial));
  let queries = 0;
  const load = async (sid: string) => {
    queries++;
    await new Promise((r) => setTimeout(r, 5));
    return rows.get(sid) ?? { active: false };
  };
  return { rows, load, queries: () => queries };
}

describe('SessionCache', () => {
  it('answers from memory after the first lookup, and shares one lookup between concurrent callers', async () => {
    const db = fakeDb({ s1: { active: true, uid: 'u1' } });
    const cache = new SessionCache(db.load);
    expect(await Promise.all([cache.get('s1'), cache.get('s1'), cache.get('s1')])).toEqual([
      true,
      true,
      true,
    ]);
    expect(await cache.get('s1')).toBe(true);
    expect(db.queries()).toBe(1);
  });

  it('peek answers only what get would, from memory, and forgets it on invalidate', async () => {
    const db = fakeDb({ s1: { active: true, uid: 'u1' }, s2: { active: false, uid: 'u1' } });
    const cache = new SessionCache(db.load);
    expect(cache.peek('s1')).toBeUndefined();
    await cache.get('s1');
    await cache.get('s2');
    expect(cache.peek('s1')).toBe(true);
    expect(cache.peek('s2')).toBe(false);
    cache.invalidate('u1');
    expect(cache.peek('s1')).toBeUndefined();
    expect(db.queries()).toBe(2);
  });

  it("drops one account's sessions on invalidate(uid), and everything on invalidate()", async () => {
    const db = fakeDb({ s1: { active: true, uid: 'u1' }, s2: { active: true, uid: 'u2' } });
    const cache = new SessionCache(db.load);
    await cache.get('s1');
    await cache.get('s2');
    db.rows.set('s1', { active: false, uid: 'u1' });
    db.rows.set('s2', { active: false, uid: 'u2' });
    cache.invalidate('u1');
    expect(await cache.get('s1')).toBe(false);
    expect(await cache.get('s2')).toBe(true);
    cache.invalidate();
    expect(await cache.get('s2')).toBe(false);
  });

  it('does not keep a result that raced an invalidation', async () => {
    const db = fakeDb({ s1: { active: true, uid: 'u1' } });
    const cache = new SessionCache(db.load);
    const pending = cache.get('s1');
    db.rows.set('s1', { active: false, uid: 'u1' });
    cache.invalidate('u1');
    await pending;
    expect(await cache.get('s1')).toBe(false);
  });

  it('expires entries after their TTL and stays within its size', async () => {
    const db = fakeDb({
      a: { active: true, uid: 'u' },
      b: { active: true, uid: 'u' },
      c: { active: true, uid: 'u' },
    });
    const cache = new SessionCache(db.load, { activeTtlMs: 20, inactiveTtlMs: 20, maxEntries: 2 });
    await cache.get('a');
    await cache.get('b');
    await cache.get('c');
    expect(cache.size).toBe(2);
    await new Promise((r) => setTimeout(r, 30));
    const before = db.queries();
    await cache.get('c');
    expect(db.queries()).toBe(before + 1);
  });
});
