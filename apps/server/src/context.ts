import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Bus } from './lib/bus.ts';
import type { CallerResolvers } from './lib/caller.ts';
import type { Metrics } from './lib/metrics.ts';
import type { Scheduler } from './lib/scheduler.ts';
import type { IdentityService } from './modules/identity/types.ts';
import type { Mailer } from './modules/mail/types.ts';

/** Everything a module needs, built once per process (or per test) and handed to every module. */
export interface AppContext {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  log: FastifyBaseLogger;
  bus: Bus;
  /** Present when REDIS_URL is set: rate-limit and brute-force counters shared by replicas. */
  redis?: Redis;
  /** Prefix for every Redis key and channel, so runs sharing one Redis never meet. */
  keyPrefix: string;
  mailer: Mailer;
  identity: IdentityService;
  /** Background jobs, each run by one replica at a time (lib/scheduler.ts). */
  scheduler: Scheduler;
  /** The figures `GET /metrics` shows, one registry per app (docs/ARCHITECTURE.md#metrics). */
  metrics: Metrics;
  /**
   * True when this process alone writes the database: the embedded one, held by its DATA_DIR lock.
   * Then whatever a previous process left half-done is known dead at start.
   */
  soleWriter: boolean;
  /** Every module's service, built once in the manifests' order by `createContext` (app.ts). */
  services: Services;
}

/**
 * Every module's services, one instance each per app (docs/ARCHITECTURE.md#server-modules). Each
 * module adds its own members from its `index.ts` (`declare module '../../context.ts'`), beside
 * the manifest that builds them: this file imports no module, so no type circle runs through it.
 */
export interface Services {
  /** Bearer token → caller, one resolver per caller kind (registered from the manifests). */
  callers: CallerResolvers;
}

/** Channels on the bus. */
export const Channels = {
  /**
   * `AuthInvalidateMessage` (lib/caller.ts): `{ uid?, email?, domain?, all? }`. Published, on every
   * replica, whenever an account's right to act may have changed: deactivation or deletion of a user
   * (`email`, and `uid` of its identity account), a role, department or domain move (`email`), a
   * session or every session of an account revoked, a password set (`uid`), a domain deactivated
   * or its settings changed (`domain`). Holders of long-lived connections (the agents websocket)
   * subscribe and re-check the matching connections with `resolveUserCaller`, closing those it refuses.
   */
  authInvalidate: 'auth.invalidate',
} as const;
