import { describe, expect, it } from 'vitest';
import { type Persistence, selectPersistence } from './persistence.ts';

const broken = (type: Persistence['type']): Persistence => ({
  type,
  get: async () => {
    throw new Error('blocked');
  },
  set: async () => {
    throw new Error('blocked');
  },
  remove: async () => {},
});

const working = (type: Persistence['type']): Persistence => {
  const map = new Map<string, unknown>();
  return {
    type,
    get: async (key) => map.get(key) ?? null,
    set: async (key, value) => {
      map.set(key, value);
    },
    remove: async (key) => {
      map.delete(key);
    },
  };
};

describe('sign-in persistence', () => {
  it('prefers IndexedDB, then localStorage, then sessionStorage', async () => {
    expect((await selectPersistence([() => working('indexedDB'), () => working('local')])).type).toBe(
      'indexedDB',
    );
    expect(
      (await selectPersistence([() => null, () => working('local'), () => working('session')])).type,
    ).toBe('local');
    expect(
      (await selectPersistence([() => broken('indexedDB'), () => broken('local'), () => working('session')]))
        .type,
    ).toBe('session');
  });

  it('falls back to memory when every storage is blocked', async () => {
    expect((await selectPersistence([() => broken('indexedDB'), () => null])).type).toBe('memory');
  });

  it('uses web storage in this browser when IndexedDB is missing', async () => {
    const persistence = await selectPersistence();
    expect(['indexedDB', 'local']).toContain(persistence.type);
    await persistence.set('k', { a: 1 });
    expect(await persistence.get('k')).toEqual({ a: 1 });
  });
});
