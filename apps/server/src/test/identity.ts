import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { createContext } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { identityRoutes } from '../modules/identity/index.ts';
import { IdentityServiceImpl } from '../modules/identity/service.ts';
import { registerErrorHandler } from '../plugins/errors.ts';
import { registerDeclaredRoutes } from '../plugins/routes.ts';
import { type LogLine, logStream } from './app.ts';
import { testDb } from './db.ts';
import { checkDeclaredResponses, failOnMismatches } from './response-check.ts';

export interface IdentityTestApp {
  app: FastifyInstance;
  ctx: AppContext;
  identity: IdentityServiceImpl;
  config: Config;
  dataDir: string;
  /** Every log line (pino JSON), for checks on what the server printed. */
  logs: LogLine[];
  close(): Promise<void>;
}

/**
 * The identity service and its routes over a fresh database, in the context app.ts builds
 * (`createContext`), without the other modules' routes. `dataDir` may be passed to reuse one (keys persist); it is then not removed.
 */
export async function buildIdentityTestApp(
  opts: { env?: Record<string, string>; dataDir?: string } = {},
): Promise<IdentityTestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'assistente-identity-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3999',
    LOG_LEVEL: 'info',
    KEY_PREFIX: `t${randomBytes(5).toString('hex')}:`,
    // The identity role alone: its jobs, and no model-call threads.
    SERVICES: 'identity',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...opts.env,
  });
  const logs: IdentityTestApp['logs'] = [];
  const stream = logStream(logs);
  const app = Fastify({
    logger: { level: 'info', stream },
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
  });
  const database = await testDb();
  const { ctx, close } = await createContext({
    config,
    database,
    log: app.log,
    soleWriter: false,
  });
  const identity = ctx.identity;
  if (!(identity instanceof IdentityServiceImpl)) throw new Error('unexpected identity service');
  registerErrorHandler(app);
  await app.register(formbody);
  await registerDeclaredRoutes(app, ctx);
  const mismatches = checkDeclaredResponses(app);
  await app.register(async (scope) => identityRoutes(scope, ctx));
  await app.ready();
  return {
    app,
    ctx,
    identity,
    config,
    dataDir,
    logs,
    async close() {
      await app.close();
      await close();
      await database.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      failOnMismatches(mismatches);
    },
  };
}

/** A password that passes the policy. */
export const GOOD_PASSWORD = 'correct horse battery staple';

let counter = 0;
/** A fresh address per call, so tests never share brute-force counters by accident. */
export const uniqueEmail = (name = 'user') =>
  `${name}.${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;
