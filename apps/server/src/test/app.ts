import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ErrorBodySchema } from '@assistente/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { type Built, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { testDb } from './db.ts';
import { checkDeclaredResponses, failOnMismatches } from './response-check.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** Whose request it is: a test user, or any set of headers (a bearer key, a visitor token). */
export type Who = { headers: Record<string, string> } | null | undefined;

/** The error an answer carries, parsed by the contract's error body. */
export const errorOf = (res: LightMyRequestResponse) => ErrorBodySchema.parse(res.json()).error;

/** A log line the server wrote (pino JSON). */
export type LogLine = { level: number; msg: string; [k: string]: unknown };

export interface TestApp extends Built {
  dataDir: string;
  /** What the server logged at warn and above, when built with `captureLogs` (else empty). */
  logs: LogLine[];
  /** One request as a client makes it: the caller's headers (then `headers`), a JSON body if given. */
  call(
    method: Method,
    url: string,
    who?: Who,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** The PostgreSQL database's URL (TEST_DB=postgres), for server processes a test starts on it. */
  databaseUrl?: string;
  /** Fails when any answer did not match its declared schema. */
  close(): Promise<void>;
}

/**
 * The whole server over a fresh database and DATA_DIR, Redis-prefixed apart from other runs.
 * `env` overrides configuration (e.g. SMTP_URL of a sink).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  opts: { captureLogs?: boolean } = {},
): Promise<TestApp> {
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
  const logs: LogLine[] = [];
  const built = await buildApp({
    config,
    database,
    bootstrap: false,
    logger: opts.captureLogs ? { level: 'warn', stream: logStream(logs) } : { level: 'warn' },
    configure: (app) => {
      mismatches = checkDeclaredResponses(app);
    },
  });
  await built.app.ready();
  return {
    ...built,
    dataDir,
    logs,
    call: (method, url, who, payload, headers = {}) =>
      built.app.inject({
        method,
        url,
        headers: { ...who?.headers, ...headers },
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
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

/** A pino destination that keeps each line, parsed (the test apps' `logs`). */
export function logStream(into: LogLine[]): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) into.push(JSON.parse(line));
      done();
    },
  });
}
