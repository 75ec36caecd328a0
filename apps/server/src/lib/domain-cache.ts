import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from './bus.ts';

/** A domain's setting read on every message, kept a while and dropped on every replica on change. */
export interface DomainCache<T> {
  /** From the cache, else one `load`. */
  get(domainId: string): Promise<T>;
  /** After a change: drop the domain's copy here at once and, through the bus, on the other replicas. */
  changed(domainId: string): Promise<void>;
  close(): void;
}

/**
 * One setting per domain (docs/ARCHITECTURE.md#shared-server-libraries), cached for `ttlMs`: the
 * bus makes a change seen at once everywhere, the TTL covers a message the bus lost.
 */
export function domainCache<T>(deps: {
  bus: Bus;
  log: FastifyBaseLogger;
  /** Bus channel of its changes (`{ domain }`). */
  channel: string;
  ttlMs: number;
  load(domainId: string): Promise<T>;
}): DomainCache<T> {
  const entries = new Map<string, { value: T; at: number }>();
  const unsubscribe = deps.bus.subscribe(deps.channel, (msg) => {
    const domain = (msg as { domain?: unknown } | undefined)?.domain;
    if (typeof domain === 'string') entries.delete(domain);
  });
  return {
    async get(domainId) {
      const hit = entries.get(domainId);
      if (hit && Date.now() - hit.at < deps.ttlMs) return hit.value;
      const value = await deps.load(domainId);
      if (entries.size > 10_000) entries.clear();
      entries.set(domainId, { value, at: Date.now() });
      return value;
    },
    async changed(domainId) {
      entries.delete(domainId);
      await deps.bus.publish(deps.channel, { domain: domainId }).catch((err: unknown) => {
        deps.log.warn({ err, channel: deps.channel }, 'could not publish a domain setting’s change');
      });
    },
    close: unsubscribe,
  };
}
