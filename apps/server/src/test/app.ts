import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Built, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { testDb } from './db.ts';
import { checkDeclaredResponses, failOnMismatches } from './response-check.ts';

export interface TestApp extends Built {
  dataDir: string;
  /** The PostgreSQL database's URL (TEST_DB=postgres), for server processes a test starts on it. */
  databaseUrl?: string;
  /** Fails when any answer did not match its declared schema. */
  close(): Promise<void>;
}

/**
 * The whole server over a fresh database and DATA_DIR, Redis-prefixed apart from other runs.
 * `env` overrides configuration (e.g. SMTP_URL of a sink).
 */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-test-'));
  const database = await testDb();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3999',
    LOG_LEVEL: 'warn',
    KEY_PREFIX: `t${randomBytes(5).toString('hex')}:`,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...env,
  });
  let mismatches: string[] = [];
  const built = await buildApp({
    config,
    database,
    bootstrap: false,
    logger: { level: 'warn' },
    configure: (app) => {
      mismatches = checkDeclaredResponses(app);
    },
  });
  await built.app.ready();
  return {
    ...built,
    dataDir,
    ...(database.url ? { databaseUrl: database.url } : {}),
    async close() {
      await built.app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      failOnMismatches(mismatches);
    },
  };
}

/**
 * A second replica of `t`: the same configuration (Redis prefix included) and database, listening
 * on loopback. Closing it leaves `t`'s database open.
 */
export async function startReplica(t: TestApp): Promise<{ built: Built; wsUrl: string }> {
  const shared = { db: t.ctx.db, kind: t.ctx.dbKind, close: async () => {} };
  const built = await buildApp({ config: t.ctx.config, database: shared, bootstrap: false, logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as AddressInfo;
  return { built, wsUrl: `ws://127.0.0.1:${port}/api/v1/agents/chat/` };
}
