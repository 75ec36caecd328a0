import formbody from '@fastify/formbody';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { bootstrapFirstRun } from './bootstrap.ts';
import type { Config } from './config.ts';
import type { AppContext, Services } from './context.ts';
import { type Database, openDatabase } from './db/client.ts';
import type { DataDirLock } from './db/data-dir-lock.ts';
import { type Bus, createLocalBus, createRedisBus } from './lib/bus.ts';
import { type CallerKind, type CallerResolver, CallerResolvers } from './lib/caller.ts';
import { AppError } from './lib/errors.ts';
import { humanLogStream } from './lib/log-format.ts';
import { createMetrics } from './lib/metrics.ts';
import { hostsAny } from './lib/module.ts';
import { containsNul, NUL_MESSAGE } from './lib/nul.ts';
import { createRedisClient, redisReady } from './lib/redis.ts';
import { createScheduler } from './lib/scheduler.ts';
import { createIdentityService } from './modules/identity/index.ts';
import { modules } from './modules/index.ts';
import { createMailer } from './modules/mail/index.ts';
import type { Mailer } from './modules/mail/types.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/errors.ts';
import { measureRequests, registerMetricsRoute } from './plugins/metrics.ts';
import { registerDeclaredRoutes } from './plugins/routes.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerWeb } from './plugins/web.ts';

export interface BuildOptions {
  config: Config;
  /** Tests hand in their own database (they close it); otherwise the app opens and owns one. */
  database?: Database;
  /**
   * The app's own database, already being opened: the server starts it before loading the rest of
   * its code, so the embedded database's start-up (≈ 1 s of WebAssembly) runs beside module loading.
   */
  opening?: Promise<Database>;
  mailer?: Mailer;
  /** Who opens an embedded database on disk (default server): the admin command says so. */
  databaseHolder?: 'server' | 'admin';
  /** Run the first-run bootstrap (default true). */
  bootstrap?: boolean;
  /** `stream`: where the log lines go instead (a test that reads them). */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
  /**
   * Called once the declared-routes plugin is in, before any module's routes: the test app checks
   * every answer against its declared schema from here (test/response-check.ts).
   */
  configure?(app: FastifyInstance): void;
}

export interface Built {
  app: FastifyInstance;
  ctx: AppContext;
  /** The embedded database's hold on DATA_DIR, when this build opened one. */
  dataDirLock?: DataDirLock;
}

export interface ContextOptions {
  config: Config;
  database: Pick<Database, 'db' | 'kind'>;
  log: FastifyBaseLogger;
  mailer?: Mailer;
  soleWriter: boolean;
}

/**
 * The context every module gets — bus, Redis, mailer, identity, scheduler and every service, each
 * built once — and the one function that closes them (the database stays the caller's). Walks the
 * manifests (modules/index.ts): builds their services in order, registers their caller kinds, and
 * adds the jobs of the modules this process hosts (`config.SERVICES`). Used by `buildApp` and by
 * tests that mount only some routes.
 */
export async function createContext(
  opts: ContextOptions,
): Promise<{ ctx: AppContext; close(): Promise<void> }> {
  const { config, database, log } = opts;
  const redis = config.REDIS_URL ? createRedisClient(config.REDIS_URL, log) : undefined;
  const bus: Bus = config.REDIS_URL
    ? createRedisBus(config.REDIS_URL, config.KEY_PREFIX, log)
    : createLocalBus();
  const mailer = opts.mailer ?? createMailer(config, log);
  const metrics = createMetrics();
  const scheduler = createScheduler({ db: database.db, log, bus, soleWriter: opts.soleWriter, metrics });
  const base = {
    config,
    db: database.db,
    dbKind: database.kind,
    log,
    bus,
    redis,
    keyPrefix: config.KEY_PREFIX,
    mailer,
    metrics,
  };
  const ctx: AppContext = {
    ...base,
    scheduler,
    soleWriter: opts.soleWriter,
    identity: await createIdentityService(base),
    // Filled just below, in the manifests' order; each service reads those before it from here.
    services: { callers: new CallerResolvers() } as Services,
  };
  const hosted = (m: (typeof modules)[number]) => hostsAny(config.SERVICES, [m.hostedBy]);
  for (const m of modules) if (m.services) Object.assign(ctx.services, m.services(ctx, hosted(m)));
  for (const m of modules) {
    for (const [kind, resolver] of Object.entries(m.callers ?? {})) {
      // `CallerFactories` pairs each kind with its resolver; Object.entries forgets the pairing.
      ctx.services.callers.register(kind as CallerKind, resolver(ctx) as CallerResolver<CallerKind>);
    }
  }
  // The scheduler's only source of jobs: a job runs where its module is hosted, and is known
  // everywhere (a SuperAdmin lists and runs any job through whichever process answers).
  for (const m of modules) {
    for (const job of m.jobs ?? []) {
      if (!hosted(m)) {
        scheduler.know(job);
        continue;
      }
      scheduler.add({
        name: job.name,
        everyMs: job.everyMs,
        runAtStart: job.runAtStart?.(ctx) ?? false,
        run: () => job.run(ctx),
      });
    }
  }
  return {
    ctx,
    async close() {
      // Before the database goes: a job in progress finishes, and leases held here are let go.
      await scheduler.close();
      // Last built first.
      for (const m of [...modules].reverse()) await m.close?.(ctx.services);
      await Promise.allSettled([bus.close(), mailer.close()]);
      // quit() would wait for a Redis that is away; nothing is queued to flush.
      redis?.disconnect();
    },
  };
}

/** Builds the whole server without listening, so tests can drive it with `app.inject()`. */
export async function buildApp(opts: BuildOptions): Promise<Built> {
  const { config } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            ...(typeof opts.logger === 'object' && opts.logger.stream
              ? { stream: opts.logger.stream }
              : config.logFormat === 'pretty'
                ? { stream: humanLogStream }
                : {}),
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'req.headers["x-endpoint-api-userinfo"]',
            ],
          },
    bodyLimit: 1024 * 1024,
    trustProxy: config.TRUST_PROXY,
    logController: new LogController({
      disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    }),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    frameworkErrors,
  });

  const owned = !opts.database;
  const database =
    opts.database ??
    (await (opts.opening ??
      openDatabase({
        url: config.DATABASE_URL,
        dataDir: config.dataDir,
        ...(opts.databaseHolder ? { holder: opts.databaseHolder } : {}),
      })));
  const { ctx, close } = await createContext({
    config,
    database,
    log: app.log,
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    soleWriter: Boolean(database.lock && owned),
  });
  app.addHook('onClose', async () => {
    await close();
    if (owned) await database.close();
  });

  registerErrorHandler(app);
  measureRequests(app, ctx.metrics);
  // Before any route is registered, so every route has it.
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      return done(new AppError('VALIDATION_FAILED', NUL_MESSAGE));
    }
    done();
  });
  await app.register(formbody);
  await registerSecurity(app, ctx);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      // Without its file store a replica would take uploads it cannot keep: not ready (still live).
      if (ctx.services.storage && !(await ctx.services.storage.reachable())) {
        return reply.status(503).send({ status: 'unavailable', unavailable: ['storage'] });
      }
      // Without its Redis a replica still serves, alone: ready, and says what it lacks.
      return ctx.redis && !redisReady(ctx.redis)
        ? { status: 'ready', degraded: ['redis'] }
        : { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  await registerDeclaredRoutes(app, ctx);
  opts.configure?.(app);
  // On every process whatever it hosts: each replica is scraped for its own figures.
  registerMetricsRoute(app, ctx);
  for (const m of modules) {
    for (const r of m.routes ?? []) {
      if (!hostsAny(config.SERVICES, r.hostedBy ?? [m.hostedBy])) continue;
      await app.register(async (scope) => r.plugin(scope, ctx), r.prefix ? { prefix: r.prefix } : {});
    }
  }
  if (hostsAny(config.SERVICES, ['web'])) await registerWeb(app, ctx);

  if (opts.bootstrap !== false) await bootstrapFirstRun(ctx);
  return { app, ctx, ...(database.lock && owned ? { dataDirLock: database.lock } : {}) };
}
