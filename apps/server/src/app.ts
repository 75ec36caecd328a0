import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { bootstrapFirstRun } from './bootstrap.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { type Database, openDatabase } from './db/client.ts';
import type { DataDirLock } from './db/data-dir-lock.ts';
import { type Bus, createLocalBus, createRedisBus } from './lib/bus.ts';
import { AppError } from './lib/errors.ts';
import { humanLogStream } from './lib/log-format.ts';
import { containsNul, NUL_MESSAGE } from './lib/nul.ts';
import { createRedisClient, redisReady } from './lib/redis.ts';
import { createScheduler } from './lib/scheduler.ts';
import { accountsRoutes } from './modules/accounts/index.ts';
import { agentsRoutes, websocketOptions } from './modules/agents/index.ts';
import { chatsRoutes } from './modules/chats/index.ts';
import { codeassistRoutes } from './modules/codeassist/index.ts';
import { createIdentityService, identityRoutes } from './modules/identity/index.ts';
import { createMailer } from './modules/mail/index.ts';
import type { Mailer } from './modules/mail/types.ts';
import { providersRoutes } from './modules/providers/index.ts';
import { santitosRoutes } from './modules/santitos/index.ts';
import { registerAuth } from './plugins/auth.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/errors.ts';
import { registerDeclaredRoutes } from './plugins/routes.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerWeb } from './plugins/web.ts';

export interface BuildOptions {
  config: Config;
  /** Tests hand in their own database; otherwise opened from the config. */
  database?: Database;
  mailer?: Mailer;
  /** Who opens an embedded database on disk (default server): the admin command says so. */
  databaseHolder?: 'server' | 'admin';
  /** Run the first-run bootstrap (default true). */
  bootstrap?: boolean;
  logger?: boolean | { level: string };
}

export interface Built {
  app: FastifyInstance;
  ctx: AppContext;
  /** The embedded database's hold on DATA_DIR, when this build opened one. */
  dataDirLock?: DataDirLock;
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
            ...(config.logFormat === 'pretty' ? { stream: humanLogStream } : {}),
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

  const database =
    opts.database ??
    (await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.dataDir,
      ...(opts.databaseHolder ? { holder: opts.databaseHolder } : {}),
    }));
  const redis = config.REDIS_URL ? createRedisClient(config.REDIS_URL, app.log) : undefined;
  const bus: Bus = config.REDIS_URL
    ? createRedisBus(config.REDIS_URL, config.KEY_PREFIX, app.log)
    : createLocalBus();
  const mailer = opts.mailer ?? createMailer(config, app.log);
  const scheduler = createScheduler({ db: database.db, log: app.log });
  const base = {
    config,
    db: database.db,
    dbKind: database.kind,
    log: app.log,
    bus,
    redis,
    keyPrefix: config.KEY_PREFIX,
    mailer,
  };
  const ctx: AppContext = {
    ...base,
    scheduler,
    soleWriter: Boolean(database.lock && !opts.database),
    identity: await createIdentityService(base),
  };

  app.addHook('onClose', async () => {
    // Before the database goes: a job in progress finishes, and leases held here are let go.
    await scheduler.close();
    await Promise.allSettled([bus.close(), mailer.close()]);
    // quit() would wait for a Redis that is away; nothing is queued to flush.
    redis?.disconnect();
    if (!opts.database) await database.close();
  });

  registerErrorHandler(app);
  // Before any route is registered, so every route has it.
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      throw new AppError('VALIDATION_FAILED', NUL_MESSAGE);
    }
  });
  await app.register(formbody);
  await app.register(websocket, websocketOptions);
  await registerSecurity(app, ctx);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      // Without its Redis a replica still serves, alone: ready, and says what it lacks.
      return redis && !redisReady(redis) ? { status: 'ready', degraded: ['redis'] } : { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  const hosts = (s: Config['SERVICES'][number]) =>
    config.SERVICES.includes('all') || config.SERVICES.includes(s);
  await registerAuth(app, ctx);
  await registerDeclaredRoutes(app, config);
  if (hosts('identity')) await app.register(async (scope) => identityRoutes(scope, ctx));
  if (hosts('accounts'))
    await app.register(async (scope) => accountsRoutes(scope, ctx), { prefix: '/api/v1' });
  if (hosts('accounts'))
    await app.register(async (scope) => santitosRoutes(scope, ctx), { prefix: '/api/v1/agent' });
  if (hosts('chats'))
    await app.register(async (scope) => chatsRoutes(scope, ctx), { prefix: '/api/v1/chats' });
  if (hosts('codeassist')) {
    await app.register(async (scope) => codeassistRoutes(scope, ctx), { prefix: '/api/v1/user_management' });
  }
  if (hosts('agents') || hosts('chats')) {
    await app.register(async (scope) => providersRoutes(scope, ctx), { prefix: '/api/v1' });
  }
  if (hosts('agents')) await app.register(async (scope) => agentsRoutes(scope, ctx), { prefix: '/api/v1' });
  if (hosts('web')) await registerWeb(app, ctx);

  if (opts.bootstrap !== false) await bootstrapFirstRun(ctx);
  return { app, ctx, ...(database.lock && !opts.database ? { dataDirLock: database.lock } : {}) };
}
