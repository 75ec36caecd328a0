import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type SpawnedServer, spawnServerProcess, startServerProcess } from './test/server-process.ts';

/**
 * The server process as `npm start` runs it: it opens its database before loading the rest of its
 * code, so a refusal from the database (another server holds the data dir) arrives while modules
 * still load. It must still end as the person starting it is told, not as an unhandled rejection.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-main-'));
const started: SpawnedServer[] = [];
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  PUBLIC_URL: '',
  WEB_DIST: path.join(dataDir, 'no-web'),
};

afterAll(() => {
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('serves once its database is open; a second one on the same data dir exits 75 and says why', async () => {
    const first = await startServerProcess(env);
    started.push(first);

    const second = await spawnServerProcess(env);
    started.push(second);
    expect(await second.exited()).toBe(75);
    expect(second.output()).toContain('Stop it first, or start this one with another DATA_DIR');
    expect(second.output()).not.toMatch(/unhandled|Failed to start/i);

    // The first never noticed.
    expect((await fetch(`${first.base}/readyz`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited()).toBe(0);
  }, 120_000);
});
