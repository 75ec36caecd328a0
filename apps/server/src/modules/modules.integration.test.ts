import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { testDb } from '../test/db.ts';
import { modules, type UnbuiltServices } from './index.ts';

// Each module's manifest says which SERVICES role mounts its routes and runs its jobs; app.ts
// only walks them. One replica per role shows what a split cluster gets where.

let database: Awaited<ReturnType<typeof testDb>>;
let dataDir: string;

beforeAll(async () => {
  database = await testDb();
  dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-modules-'));
});

afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A replica hosting `services`: its API routes' prefixes, its jobs, whether it built the agents service. */
async function replica(services: string) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    SERVICES: services,
    WEB_DIST: path.join(dataDir, 'no-web'),
  });
  const shared = { db: database.db, kind: database.kind, close: async () => {} };
  const { app, ctx } = await buildApp({ config, database: shared, bootstrap: false, logger: false });
  await app.ready();
  const prefixes = new Set(
    app.apiRoutes.map((r) => {
      const url = r.split(' ')[1] ?? '';
      const parts = url.split('/').filter(Boolean);
      return `/${parts.slice(0, parts[0] === 'api' ? 3 : 1).join('/')}`;
    }),
  );
  const found = {
    prefixes: [...prefixes].sort(),
    jobs: ctx.scheduler.jobs().sort(),
    agents: ctx.services.agents !== undefined,
  };
  await app.close();
  return found;
}

describe('module manifests', () => {
  it('every member of ctx.services is built by a listed module', () => {
    expectTypeOf<UnbuiltServices>().toEqualTypeOf<never>();
    expect(new Set(modules.map((m) => m.name)).size).toBe(modules.length);
  });

  it('job names are unique and name their module', () => {
    const jobs = modules.flatMap((m) => (m.jobs ?? []).map((j) => ({ module: m.name, name: j.name })));
    expect(new Set(jobs.map((j) => j.name)).size).toBe(jobs.length);
    for (const j of jobs) expect(j.name.startsWith(`${j.module}.`), j.name).toBe(true);
  });

  it('a split cluster mounts each module and runs each job only where its role is hosted', async () => {
    const identity = await replica('identity');
    expect(identity).toMatchObject({ prefixes: ['/identity'], jobs: ['identity.purge'], agents: false });

    const accounts = await replica('accounts');
    expect(accounts).toMatchObject({
      jobs: ['governance.retention', 'knowledge.sync', 'usage.reservations'],
      agents: false,
    });
    expect(accounts.prefixes).toEqual([
      '/api/v1/agent',
      '/api/v1/api_keys',
      '/api/v1/audit',
      '/api/v1/department',
      '/api/v1/domain',
      '/api/v1/export',
      '/api/v1/integration',
      '/api/v1/jobs',
      '/api/v1/me',
      '/api/v1/prompts',
      '/api/v1/settings',
      '/api/v1/usage',
      '/api/v1/user',
      '/api/v1/virtual_account',
    ]);

    const chats = await replica('chats');
    expect(chats).toMatchObject({ jobs: ['chats.purge-deleted', 'chats.purge-drafts'], agents: false });
    expect(chats.prefixes).toEqual([
      '/api/v1/chats',
      '/api/v1/embedded',
      '/api/v1/models',
      '/api/v1/settings',
      '/api/v1/shares',
    ]);

    const agents = await replica('agents');
    expect(agents).toMatchObject({
      jobs: ['agents.expired-approvals', 'agents.stale-answers'],
      agents: true,
    });
    expect(agents.prefixes).toEqual(['/api/v1/agents', '/api/v1/models', '/api/v1/settings', '/v1']);

    const codeassist = await replica('codeassist');
    expect(codeassist).toMatchObject({ prefixes: ['/api/v1/user_management'], jobs: [], agents: false });

    const web = await replica('web');
    expect(web).toMatchObject({ prefixes: [], jobs: [] });

    const all = await replica('all');
    expect(all.jobs).toEqual(
      [
        'agents.expired-approvals',
        'agents.stale-answers',
        'chats.purge-deleted',
        'chats.purge-drafts',
        'governance.retention',
        'identity.purge',
        'knowledge.sync',
        'usage.reservations',
      ].sort(),
    );
    expect(all.agents).toBe(true);
  });
});
