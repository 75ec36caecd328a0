import type { AppContext } from '../../context.ts';
import { type DomainCache, domainCache } from '../../lib/domain-cache.ts';
import { warmTokenizer } from '../usage/index.ts';
import { type MemoryStore, memoryStore } from './store.ts';

/**
 * What every memory operation shares (docs/ARCHITECTURE.md#service-style): the store, and each
 * domain's switch, cached briefly because every answer asks it.
 */
export interface MemoryState {
  ctx: AppContext;
  store: MemoryStore;
  switches: DomainCache<boolean>;
}

export function createMemoryState(ctx: AppContext): MemoryState {
  const store = memoryStore(ctx.db);
  const switches = domainCache({
    bus: ctx.bus,
    log: ctx.log,
    channel: 'memory.changed',
    ttlMs: 30_000,
    load: async (domainId) => {
      const enabled = await store.enabled(domainId);
      // Its answers count memories' tokens: the tokenizer loads now, not on the first answer.
      if (enabled) void warmTokenizer().catch(() => {});
      return enabled;
    },
  });
  return { ctx, store, switches };
}

/** Whether the domain has memory on. */
export const memoryOn = (s: MemoryState, domainId: string): Promise<boolean> => s.switches.get(domainId);

/** After a change: every replica reads the domain's switch again. */
export const switched = (s: MemoryState, domainId: string): Promise<void> => s.switches.changed(domainId);

export function close(s: MemoryState): void {
  s.switches.close();
}
