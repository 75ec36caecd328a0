import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { rememberUrl } from '../db/data-dir-lock.ts';
import { departments, domains, identityAccounts, users } from '../db/schema/index.ts';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dataDir: string;
let databaseUrl = '';
let dropDatabase: (() => Promise<void>) | undefined;

/** Runs `npm run admin -- …` the way an operator would (without npm's own noise). */
function admin(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return adminWith({}, ...args);
}

/** `create-user` with its two required options, then any others. */
const createUserArgs = (email: string, password: string, ...more: string[]) => [
  'create-user',
  '--email',
  email,
  '--password',
  password,
  ...more,
];

/** `admin` with environment overrides (`undefined` removes a variable). */
function adminWith(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const { ADMIN_EMAIL: _e, ADMIN_PASSWORD: _p, ...inherited } = process.env;
    // What `npm run admin` runs (vitest's global set-up compiled it).
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/admin.js', ...args], {
      cwd: serverDir,
      env: {
        ...inherited,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        PUBLIC_URL: 'http://localhost:3999',
        LOG_LEVEL: 'warn',
        ...env,
      } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Opens the database the CLI wrote to (after it exited: PGlite is single-process). */
async function inspect<T>(
  fn: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(databaseUrl ? { url: databaseUrl, poolSize: 2 } : { dataDir });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-cli-'));
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB === 'postgres' && url) {
    const name = `t_${randomBytes(6).toString('hex')}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDatabase = async () => {
      const d = new pg.Client({ connectionString: url });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    };
  }
});

afterAll(async () => {
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin beside a running server on the embedded database', { timeout: 120_000 }, () => {
  it('refuses, naming the server and what to do, and writes nothing; runs once the server stops', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'assistente-cli-busy-'));
    const env = { DATA_DIR: own, DATABASE_URL: '', PUBLIC_URL: undefined, PORT: undefined };
    try {
      // The server's hold on its data directory, as main.ts takes it once listening on port 4123.
      const server = await openDatabase({ dataDir: own });
      server.lock?.update({ url: 'http://localhost:4123' });
      rememberUrl({ dataDir: own, publicUrl: 'http://localhost:4123' });
      const refused = await adminWith(env, ...createUserArgs('late@acme.example', 'Str0ng-Passphrase-123'));
      expect(refused.code, refused.stderr).toBe(75);
      expect(refused.stdout).not.toContain('Created');
      expect(refused.stderr).toContain(`pid ${process.pid}, http://localhost:4123`);
      expect(refused.stderr).toContain('stop the server');
      expect(refused.stderr).toContain('http://localhost:4123/users');
      const [none] = await server.db.select().from(users).where(eq(users.id, 'late@acme.example'));
      expect(none).toBeUndefined();
      await server.close();

      const done = await adminWith(env, ...createUserArgs('late@acme.example', 'Str0ng-Passphrase-123'));
      expect(done.code, done.stderr).toBe(0);
      // The address the server last listened at, not the default port 3000.
      expect(done.stdout).toContain('Sign in at http://localhost:4123/auth/login');
      const again = await openDatabase({ dataDir: own });
      const [user] = await again.db.select().from(users).where(eq(users.id, 'late@acme.example'));
      expect(user?.role).toBe('Viewer');
      await again.close();
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('a second server on the same data directory stops at once with a clear message', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'assistente-busy-'));
    try {
      const first = await openDatabase({ dataDir: own });
      const second = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: own, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      second.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const code = await new Promise<number | null>((resolve) => second.on('close', resolve));
      expect(code, stderr).toBe(75);
      expect(stderr).toContain(`Assistente is running on ${own} (pid ${process.pid}`);
      await first.close();
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

describe('npm run admin', { timeout: 240_000 }, () => {
  it('prints help with exit 0, and usage errors exit 64', async () => {
    const help = await admin('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('create-user');
    expect((await admin('create-user', '--help')).code).toBe(0);
    expect((await admin()).code).toBe(64);
    const unknown = await admin('frobnicate');
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('Unknown command');
    expect((await admin('create-user', '--email', 'a@b.example', '--bogus')).code).toBe(64);
    expect((await admin('create-user', '--email', 'a@b.example', '--role', 'God')).code).toBe(64);
    expect((await admin('create-user', '--password', 'x')).code).toBe(64);
  });

  it('create-user makes the identity account, domain, department and user', async () => {
    const res = await admin(
      ...createUserArgs(
        'Root@Acme.example',
        'Str0ng-Passphrase-123',
        '--role',
        'SuperAdmin',
        '--domain',
        'acme.example',
        '--department',
        'Engenharia',
        '--name',
        'Root User',
        '--accept-eula',
      ),
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Created SuperAdmin root@acme.example in acme.example / Engenharia');
    expect(res.stdout).not.toContain('Str0ng-Passphrase-123');

    await inspect(async (db) => {
      const [user] = await db.select().from(users).where(eq(users.id, 'root@acme.example'));
      expect(user).toMatchObject({ role: 'SuperAdmin', domainId: 'acme.example', displayName: 'Root User' });
      // --accept-eula: the operator's EULA record is stored as accepted.
      expect(user?.eula).toMatchObject({ accept: true, pendingRevision: false });
      const [dept] = await db
        .select()
        .from(departments)
        .where(eq(departments.id, user?.departmentId ?? ''));
      expect(dept).toMatchObject({ displayName: 'Engenharia', domainId: 'acme.example' });
      const [domain] = await db.select().from(domains).where(eq(domains.id, 'acme.example'));
      expect(domain).toBeDefined();
      const [account] = await db
        .select()
        .from(identityAccounts)
        .where(eq(identityAccounts.email, 'root@acme.example'));
      expect(account?.passwordHash).toBeTruthy();
      expect(account?.passwordHash).not.toContain('Str0ng-Passphrase-123');
    });
  });

  it('reuses the domain and its first department, prints a generated password, refuses duplicates', async () => {
    const res = await admin('create-user', '--email', 'second@acme.example');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Created Viewer second@acme.example in acme.example / Engenharia');
    expect(res.stdout).toMatch(/Password: \S{20,}/);

    const dup = await admin(...createUserArgs('ROOT@acme.example', 'Another-Passw0rd-9'));
    expect(dup.code).toBe(65);
    expect(dup.stderr).toContain('already exists');

    await inspect(async (db) => {
      expect(await db.select().from(domains)).toHaveLength(1);
      expect(await db.select().from(departments)).toHaveLength(1);
      expect(await db.select().from(users)).toHaveLength(2);
      // Without --accept-eula the user accepts the terms at first sign-in.
      const [second] = await db.select().from(users).where(eq(users.id, 'second@acme.example'));
      expect(second?.eula).toMatchObject({ accept: false, pendingRevision: true });
    });
  });

  it('refuses an invalid email with exit 65', async () => {
    const res = await admin('create-user', '--email', 'not an email');
    expect(res.code).toBe(65);
    expect(res.stderr).toContain('Invalid email');
    const weak = await admin('create-user', '--email', 'weak@acme.example', '--password', '123');
    expect(weak.code).toBe(65);
    expect(weak.stderr).toMatch(/password/i);
    expect(weak.stderr).not.toContain('Deprecation');
    await inspect(async (db) => {
      expect(await db.select().from(users).where(eq(users.id, 'weak@acme.example'))).toHaveLength(0);
    });
  });
});
