import formbody from '@fastify/formbody';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
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
import { agentsRoutes } from './modules/agents/index.ts';
import { apiKeysRoutes, openAiRoutes } from './modules/apikeys/index.ts';
import { chatsRoutes } from './modules/chats/index.ts';
import { codeassistRoutes } from './modules/codeassist/index.ts';
import { virtualAccountRoutes, visitorRoutes } from './modules/embedded/index.ts';
import { createIdentityService, identityRoutes } from './modules/identity/index.ts';
import { knowledgeRoutes } from './modules/knowledge/index.ts';
import { createMailer } from './modules/mail/index.ts';
import type { Mailer } from './modules/mail/types.ts';
import { providersRoutes } from './modules/providers/index.ts';
import { santitosRoutes } from './modules/santitos/index.ts';
import { settingsRoutes } from './modules/settings/index.ts';
import { ssoAdminRoutes, ssoFlowRoutes } from './modules/sso/index.ts';
import { registerAuth } from './plugins/auth.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/errors.ts';
import { registerDeclaredRoutes } from './plugins/routes.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerWeb } from './plugins/web.ts';
import { buildServices, closeServices, type Services } from './services.ts';

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
  logger?: boolean | { level: string };
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
  /** Build the agents service (it starts the model-call threads): where the websocket is hosted. */
  agents: boolean;
}

/**
 * The context every module gets — bus, Redis, mailer, identity, scheduler and every service, each
 * built once — and the one function that closes them (the database stays the caller's). Used by
 * `buildApp` and by tests that mount only some routes.
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
  const scheduler = createScheduler({ db: database.db, log, soleWriter: opts.soleWriter });
  const base = {
    config,
    db: database.db,
    dbKind: database.kind,
    log,
    bus,
    redis,
    keyPrefix: config.KEY_PREFIX,
    mailer,
  };
  const ctx: AppContext = {
    ...base,
    scheduler,
    soleWriter: opts.soleWriter,
    identity: await createIdentityService(base),
    // Filled just below, in dependency order; each service reads the others from here.
    services: {} as Services,
  };
  buildServices(ctx, { agents: opts.agents });
  return {
    ctx,
    async close() {
      // Before the database goes: a job in progress finishes, and leases held here are let go.
      await scheduler.close();
      await closeServices(ctx.services);
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

  const owned = !opts.database;
  const database =
    opts.database ??
    (await (opts.opening ??
      openDatabase({
        url: config.DATABASE_URL,
        dataDir: config.dataDir,
        ...(opts.databaseHolder ? { holder: opts.databaseHolder } : {}),
      })));
  const hosts = (s: Config['SERVICES'][number]) =>
    config.SERVICES.includes('all') || config.SERVICES.includes(s);
  const { ctx, close } = await createContext({
    config,
    database,
    log: app.log,
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    soleWriter: Boolean(database.lock && owned),
    agents: hosts('agents'),
  });
  app.addHook('onClose', async () => {
    await close();
    if (owned) await database.close();
  });

  registerErrorHandler(app);
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
      // Without its Redis a replica still serves, alone: ready, and says what it lacks.
      return ctx.redis && !redisReady(ctx.redis)
        ? { status: 'ready', degraded: ['redis'] }
        : { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  registerAuth(ctx);
  await registerDeclaredRoutes(app, ctx);
  if (hosts('identity')) await app.register(async (scope) => identityRoutes(scope, ctx));
  // Single sign-on ends in an identity session: its browser flow is hosted with the identity service.
  if (hosts('identity')) await app.register(async (scope) => ssoFlowRoutes(scope, ctx));
  if (hosts('accounts')) {
    await app.register(async (scope) => ssoAdminRoutes(scope, ctx), { prefix: '/api/v1/integration/sso' });
  }
  if (hosts('accounts'))
    await app.register(async (scope) => accountsRoutes(scope, ctx), { prefix: '/api/v1' });
  // Settings read and change accounts' data through accounts; mounted beside it, not inside it.
  if (hosts('accounts'))
    await app.register(async (scope) => settingsRoutes(scope, ctx), { prefix: '/api/v1/settings' });
  if (hosts('accounts'))
    await app.register(async (scope) => santitosRoutes(scope, ctx), { prefix: '/api/v1/agent' });
  if (hosts('accounts')) {
    await app.register(async (scope) => virtualAccountRoutes(scope, ctx), {
      prefix: '/api/v1/virtual_account',
    });
  }
  // Visitors reach only the chats manager's side of the product: hosted beside it.
  if (hosts('chats'))
    await app.register(async (scope) => visitorRoutes(scope, ctx), { prefix: '/api/v1/embedded' });
  if (hosts('accounts'))
    await app.register(async (scope) => knowledgeRoutes(scope, ctx), {
      prefix: '/api/v1/integration/knowledge',
    });
  if (hosts('chats'))
    await app.register(async (scope) => chatsRoutes(scope, ctx), { prefix: '/api/v1/chats' });
  if (hosts('codeassist')) {
    await app.register(async (scope) => codeassistRoutes(scope, ctx), { prefix: '/api/v1/user_management' });
  }
  if (hosts('agents') || hosts('chats')) {
    await app.register(async (scope) => providersRoutes(scope, ctx), { prefix: '/api/v1' });
  }
  if (hosts('agents')) await app.register(async (scope) => agentsRoutes(scope, ctx), { prefix: '/api/v1' });
  if (hosts('accounts'))
    await app.register(async (scope) => apiKeysRoutes(scope, ctx), { prefix: '/api/v1' });
  // Model calls run where the agents are hosted; the OpenAI-compatible API makes them there.
  if (hosts('agents')) await app.register(async (scope) => openAiRoutes(scope, ctx), { prefix: '/v1' });
  if (hosts('web')) await registerWeb(app, ctx);

  if (opts.bootstrap !== false) await bootstrapFirstRun(ctx);
  return { app, ctx, ...(database.lock && owned ? { dataDirLock: database.lock } : {}) };
}
