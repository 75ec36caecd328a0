// A real server process (the compiled `dist/main.js`) for tests that kill one, or watch it refuse to
// start: what a `kill -9` leaves behind can only be seen from outside the process that dies.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '../..');

/**
 * Node's options as `npm start` runs the server (apps/server/package.json), read from there so tests
 * and benches run the process operators do (docs/ARCHITECTURE.md#build-and-run).
 */
export const START_NODE_OPTIONS: readonly string[] = (() => {
  const { scripts } = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist/main.js') {
    throw new Error(`apps/server's start script is not "node [options] dist/main.js": ${scripts.start}`);
  }
  return words.slice(1, -1);
})();

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export interface SpawnedServer {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its exit code once it has exited (null when a signal ended it). */
  exited(): Promise<number | null>;
}

export interface ServerProcess extends SpawnedServer {
  /** The agents websocket. */
  wsUrl: string;
  /** `kill -9`, resolved once the process is gone. */
  kill9(): Promise<void>;
}

/**
 * How the server is run: compiled, as `npm start` runs it (vitest's global set-up builds it before
 * the tests), or its sources through tsx (the start bench compares the two).
 */
const ENTRIES = {
  compiled: [...START_NODE_OPTIONS, 'dist/main.js'],
  source: ['--import', 'tsx', 'src/main.ts'],
} as const;

/**
 * Spawns the server with `env` over this process's environment (HOST and PORT chosen here; an
 * undefined value is left unset), without waiting for it.
 */
export async function spawnServerProcess(
  env: Record<string, string | undefined>,
  run: keyof typeof ENTRIES = 'compiled',
): Promise<SpawnedServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ENTRIES[run], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (c: Buffer) => {
    output += c.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, base: `http://127.0.0.1:${port}`, output: () => output, exited: () => exit };
}

/**
 * Spawns the server and waits for `/readyz`. Throws with what the server wrote when it exits or is
 * not ready in a minute.
 */
export async function startServerProcess(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const server = await spawnServerProcess(env);
  const { child, base } = server;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`a server process exited with ${child.exitCode}:\n${server.output()}`);
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`a server process did not become ready:\n${server.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    ...server,
    wsUrl: `${base.replace('http', 'ws')}/api/v1/agents/chat/`,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await server.exited();
    },
  };
}
