import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LlmFixture, startLlmFixture } from '../../apps/server/src/test/llm-fixture.ts';

const root = path.resolve(import.meta.dirname, '../..');
const extensionDir = path.join(root, 'apps/vscode');
export const PASSWORD = 'correct-horse-battery-9';
export const person = { email: 'dev@vscode.test', name: 'Davi Dev', domain: 'vscode.test' };
/** The domain's Admin, who sets the budget that refuses the person. */
export const admin = { email: 'admin@vscode.test', name: 'Ana Admin', domain: 'vscode.test' };

/** A free port on `host` (the OS picks it). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function until(what: string, ok: () => Promise<boolean>, child: ChildProcess, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await ok().catch(() => false))) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not start in ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stops a process and waits for it (its whole group: code-server's wrapper ends its tree on SIGTERM). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface Harness {
  appUrl: string;
  codeUrl: string;
  llm: LlmFixture;
  vsix: string;
  vsixBytes: number;
  workspace: string;
  /** The activation the extension logs ("activated in N ms of CPU (M ms wall)"), once it has. */
  activation(): { cpuMs: number; wallMs: number } | undefined;
  close(): Promise<void>;
}

/**
 * Everything the journey needs, real: the built app on 127.0.0.2 (VS Code's port forwarding rewrites
 * localhost and 127.0.0.1 addresses), the model fixture, the packaged .vsix installed into code-server
 * (installed into a cache outside the workspace when missing), and code-server on 127.0.0.1.
 */
export async function startHarness(): Promise<Harness> {
  const work = mkdtempSync(path.join(tmpdir(), 'assistente-vscode-e2e-'));
  const children: ChildProcess[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  try {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
    if (!existsSync(path.join(root, 'apps/web/dist/index.html')))
      execFileSync(process.execPath, ['scripts/build-web.mjs'], { cwd: root, stdio: 'inherit' });
    execFileSync('npm', ['run', 'package', '--silent', '-w', 'apps/vscode'], { cwd: root, stdio: 'ignore' });
    const version = (
      JSON.parse(readFileSync(path.join(extensionDir, 'package.json'), 'utf8')) as { version: string }
    ).version;
    const vsix = path.join(extensionDir, `assistente-vscode-${version}.vsix`);
    const tools = execFileSync(path.join(extensionDir, 'scripts/install-code-server.sh'), {
      encoding: 'utf8',
    }).trim();

    const llm = await startLlmFixture({ script: { text: 'Olá do fixture.' }, record: true });
    cleanup.push(() => llm.close());

    const appPort = await freePort('127.0.0.2');
    const codePort = await freePort('127.0.0.1');
    const appUrl = `http://127.0.0.2:${appPort}`;
    const codeUrl = `http://127.0.0.1:${codePort}`;
    const env = {
      ...process.env,
      DATA_DIR: path.join(work, 'data'),
      PORT: String(appPort),
      HOST: '127.0.0.2',
      PUBLIC_URL: appUrl,
      EDITOR_CALLBACK_ORIGINS: codeUrl,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'test',
      DEFAULT_MODEL: 'openai:fixture-small',
      PROVIDER_URL_ALLOWLIST: new URL(llm.baseUrl).host,
    };
    for (const [who, role] of [
      [person, 'Editor'],
      [admin, 'Admin'],
    ] as const) {
      execFileSync(
        process.execPath,
        [
          'apps/server/dist/admin.js',
          'create-user',
          '--email',
          who.email,
          '--password',
          PASSWORD,
          '--role',
          role,
          '--domain',
          who.domain,
          '--name',
          who.name,
          '--accept-eula',
        ],
        { cwd: root, env, stdio: 'ignore' },
      );
    }
    const app = spawn(process.execPath, ['apps/server/dist/main.js'], {
      cwd: root,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(app);
    await until('the app', async () => (await fetch(`${appUrl}/readyz`)).ok, app);

    // code-server gets a home of its own: settings, extensions and logs stay in this run's folder.
    const home = path.join(work, 'home');
    const userData = path.join(work, 'user-data');
    const extensions = path.join(work, 'extensions');
    const workspace = path.join(work, 'workspace');
    mkdirSync(path.join(userData, 'User'), { recursive: true });
    mkdirSync(workspace, { recursive: true });
    writeFileSync(
      path.join(userData, 'User/settings.json'),
      JSON.stringify({
        'workbench.startupEditor': 'none',
        'chat.disableAIFeatures': true,
        'workbench.tips.enabled': false,
        'extensions.ignoreRecommendations': true,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'assistente.serverUrl': appUrl,
      }),
    );
    writeFileSync(
      path.join(workspace, 'sample.ts'),
      'export function add(a: number, b: number) {\n  return a + b;\n}\n',
    );
    const codeEnv = {
      ...process.env,
      PATH: `${path.join(tools, 'node/bin')}:${process.env.PATH}`,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      // Tests talk to loopback only: the marketplace (open-vsx.org by default) points at a closed port.
      EXTENSIONS_GALLERY: JSON.stringify({
        serviceUrl: 'http://127.0.0.1:9/vscode/gallery',
        itemUrl: 'http://127.0.0.1:9/vscode/item',
      }),
    };
    const bin = path.join(tools, 'node_modules/.bin/code-server');
    const dirs = ['--extensions-dir', extensions, '--user-data-dir', userData];
    execFileSync(bin, [...dirs, '--install-extension', vsix, '--force'], { env: codeEnv, stdio: 'ignore' });
    const code = spawn(
      bin,
      [
        ...dirs,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${codePort}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--reconnection-grace-time',
        '10',
        '--link-protection-trusted-domains',
        appUrl,
        workspace,
      ],
      { env: codeEnv, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    children.push(code);
    await until('code-server', async () => (await fetch(`${codeUrl}/healthz`)).ok, code);

    const logs = path.join(userData, 'logs');
    return {
      appUrl,
      codeUrl,
      llm,
      vsix,
      vsixBytes: statSync(vsix).size,
      workspace,
      activation() {
        for (const file of findFiles(logs, 'Assistente.log')) {
          const m = /activated in ([\d.]+) ms of CPU \(([\d.]+) ms wall\)/.exec(readFileSync(file, 'utf8'));
          if (m) return { cpuMs: Number(m[1]), wallMs: Number(m[2]) };
        }
        return undefined;
      },
      async close() {
        for (const c of children.reverse()) await stop(c);
        for (const f of cleanup) await f();
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (err) {
    for (const c of children.reverse()) await stop(c);
    for (const f of cleanup) await f();
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

function findFiles(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name === name)
    .map((e) => path.join(e.parentPath, e.name));
}
