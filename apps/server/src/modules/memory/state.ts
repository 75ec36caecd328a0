import type { AppContext } from '../../context.ts';
import { warmTokenizer } from '../usage/index.ts';
import { type MemoryStore, memoryStore } from './store.ts';

/**
 * What every memory operation shares (docs/ARCHITECTURE.md#service-style): the store, and each
 * domain's switch, cached briefly because every answer asks it.
 */
export interface MemoryState {
  ctx: AppContext;
  store: MemoryStore;
  switches: Map<string, { enabled: boolean; at: number }>;
  unsubscribe: () => void;
}

/** Bus channel: a domain's memory switch changed (`{ domain }`), drop it from every replica's cache. */
const MEMORY_CHANGED = 'memory.changed';

/** How long a domain's switch is reused without asking the database. */
const SWITCH_TTL_MS = 30_000;

export function createMemoryState(ctx: AppContext): MemoryState {
  const switches: MemoryState['switches'] = new Map();
  const unsubscribe = ctx.bus.subscribe(MEMORY_CHANGED, (msg) => {
    const domain = (msg as { domain?: unknown } | undefined)?.domain;
    if (typeof domain === 'string') switches.delete(domain);
  });
  return { ctx, store: memoryStore(ctx.db), switches, unsubscribe };
}

/** Whether the domain has memory on: from the cache, else one read of its settings row. */
export async function memoryOn(s: MemoryState, domainId: string): Promise<boolean> {
  const hit = s.switches.get(domainId);
  if (hit && Date.now() - hit.at < SWITCH_TTL_MS) return hit.enabled;
  const enabled = await s.store.enabled(domainId);
  if (s.switches.size > 10_000) s.switches.clear();
  s.switches.set(domainId, { enabled, at: Date.now() });
  // Its answers count memories' tokens: the tokenizer loads now, not on the first answer.
  if (enabled) void warmTokenizer().catch(() => {});
  return enabled;
}

/** After a change: drop the domain's switch here at once and on the other replicas. */
export async function switched(s: MemoryState, domainId: string): Promise<void> {
  s.switches.delete(domainId);
  await s.ctx.bus.publish(MEMORY_CHANGED, { domain: domainId }).catch((err: unknown) => {
    s.ctx.log.warn({ err }, 'could not publish a memory settings change');
  });
}

export function close(s: MemoryState): void {
  s.unsubscribe();
}
