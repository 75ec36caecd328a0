// The app built in this process on a fresh embedded database, for benches that time requests
// with `app.inject` (no socket between the client and the route).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';

/** The `p`th percentile of `sorted` (ascending), rounded to `digits` decimals. */
export function percentile(sorted: number[], p: number, digits = 3): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  const scale = 10 ** digits;
  return Math.round((sorted[Math.max(0, i)] ?? 0) * scale) / scale;
}

/** Builds the app (quiet, rate limits off, no web build); `close` stops it and removes its data. */
export async function inProcessApp(name: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `assistente-bench-${name}-`));
  const database = await openDatabase({});
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
    PUBLIC_URL: 'http://127.0.0.1:1',
    WEB_DIST: path.join(dataDir, 'no-web'),
  });
  const { app, ctx } = await buildApp({ config, database, bootstrap: false, logger: false });
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
