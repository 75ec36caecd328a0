import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { AppContext, Services } from '../context.ts';
import type { CallerKind, CallerResolver } from './caller.ts';
import type { JobOutcome } from './scheduler.ts';

/** A name `SERVICES` may list: what a process can host (docs/ARCHITECTURE.md#services-in-one-process). */
export type ServiceRole = Exclude<Config['SERVICES'][number], 'all'>;

/** Whether a process configured with `services` hosts any of `roles`. */
export function hostsAny(services: Config['SERVICES'], roles: readonly ServiceRole[]): boolean {
  return services.includes('all') || roles.some((r) => services.includes(r));
}

/** One route plugin of a module, mounted under its prefix where one of its roles is hosted. */
export interface ModuleRoutes {
  plugin(app: FastifyInstance, ctx: AppContext): Promise<void>;
  /** Omitted: the plugin's paths are absolute. */
  prefix?: string;
  /** The roles that mount it, when not the module's own (any one of them is enough). */
  hostedBy?: readonly ServiceRole[];
}

/** A background job (docs/ARCHITECTURE.md#background-jobs), added to the scheduler where the module is hosted. */
export interface ModuleJob {
  /** `<module>.<what>`, unique in the cluster: replicas share its lease by name. */
  name: string;
  everyMs: number;
  /** Also try at once when the process starts (start-up recovery work). */
  runAtStart?(ctx: AppContext): boolean;
  /** May answer what it did (`{ chats: 3 }`), kept with the run (`GET /api/v1/jobs`). */
  run(ctx: AppContext): Promise<JobOutcome>;
}

/** For each caller kind the module owns, the resolver it registers (docs/ARCHITECTURE.md#callers). */
export type CallerFactories = { [K in CallerKind]?: (ctx: AppContext) => CallerResolver<K> };

/**
 * Everything `app.ts` needs to know of a module (docs/ARCHITECTURE.md#server-modules). `K` are the
 * `ctx.services` members it builds; its `index.ts` declares their types on `Services`.
 */
export interface ModuleManifest<K extends keyof Services = never> {
  name: string;
  /** The `SERVICES` role whose processes mount its routes and run its jobs. */
  hostedBy: ServiceRole;
  /**
   * Builds its services, once, after those of the modules listed before it (which it may read from
   * `ctx.services`). `hosted`: this process hosts `hostedBy` (most services are built everywhere).
   */
  services?(ctx: AppContext, hosted: boolean): Pick<Services, K>;
  /** Lets go of what its services hold (threads, sockets, subscriptions, timers). */
  close?(services: Partial<Services>): Promise<void> | void;
  callers?: CallerFactories;
  routes?: readonly ModuleRoutes[];
  jobs?: readonly ModuleJob[];
}

/** Types a manifest, inferring the services it builds from its factory. */
export function defineModule<K extends keyof Services = never>(
  manifest: ModuleManifest<K>,
): ModuleManifest<K> {
  return manifest;
}

/** The `ctx.services` members a list of manifests builds. */
export type ServicesBuiltBy<M> = M extends ModuleManifest<infer K> ? K : never;
