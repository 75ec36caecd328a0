import { createStore, del, get, set, type UseStore } from 'idb-keyval';

export type PersistenceType = 'indexedDB' | 'local' | 'session' | 'memory';

/** Where the signed-in user is kept between visits. */
export interface Persistence {
  readonly type: PersistenceType;
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
}

const PROBE_KEY = '__assistente_probe__';

async function works(persistence: Persistence): Promise<boolean> {
  try {
    await persistence.set(PROBE_KEY, '1');
    const ok = (await persistence.get(PROBE_KEY)) === '1';
    await persistence.remove(PROBE_KEY);
    return ok;
  } catch {
    return false;
  }
}

function indexedDbPersistence(): Persistence | null {
  if (typeof indexedDB === 'undefined') return null;
  let store: UseStore | null = null;
  const db = () => {
    store ??= createStore('assistente-auth', 'keyval');
    return store;
  };
  return {
    type: 'indexedDB',
    get: (key) => get(key, db()),
    set: (key, value) => set(key, value, db()),
    remove: (key) => del(key, db()),
  };
}

function webStoragePersistence(type: 'local' | 'session', storage: () => Storage): Persistence | null {
  try {
    if (!storage()) return null;
  } catch {
    return null; // access itself throws when storage is blocked
  }
  return {
    type,
    get: async (key) => {
      const raw = storage().getItem(key);
      return raw === null ? null : JSON.parse(raw);
    },
    set: async (key, value) => storage().setItem(key, JSON.stringify(value)),
    remove: async (key) => storage().removeItem(key),
  };
}

const localStoragePersistence = () => webStoragePersistence('local', () => window.localStorage);
const sessionStoragePersistence = () => webStoragePersistence('session', () => window.sessionStorage);

export function memoryPersistence(): Persistence {
  const map = new Map<string, unknown>();
  return {
    type: 'memory',
    get: async (key) => map.get(key) ?? null,
    set: async (key, value) => {
      map.set(key, value);
    },
    remove: async (key) => {
      map.delete(key);
    },
  };
}

/**
 * The first persistence that works here (docs/ARCHITECTURE.md#sessions-and-the-identity-client): IndexedDB, then localStorage, then
 * sessionStorage; memory as the last resort (private modes that block every storage).
 */
export async function selectPersistence(
  candidates: (() => Persistence | null)[] = [
    indexedDbPersistence,
    localStoragePersistence,
    sessionStoragePersistence,
  ],
): Promise<Persistence> {
  for (const make of candidates) {
    const persistence = make();
    if (persistence && (await works(persistence))) return persistence;
  }
  return memoryPersistence();
}
