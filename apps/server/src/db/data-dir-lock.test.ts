import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirBusyError, type LockHolder, lockDataDir } from './data-dir-lock.ts';

let dir: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'assistente-lock-'));
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, 'pglite.lock');
const leaveLock = (holder: LockHolder) => writeFileSync(lockFile(), JSON.stringify(holder));
const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
};

/** A process that prints a line once it is ready (a pid, for the zombie maker), and then waits. */
async function start(command: string, args: string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (c: Buffer) => resolve(c.toString().trim()));
    child.once('error', reject);
  });
  return { child, line };
}

describe('the data directory lock', () => {
  it('refuses a second holder while the first runs, and says who holds it', async () => {
    const { child } = await start('sh', ['-c', 'echo up; exec sleep 30']);
    leaveLock({ pid: child.pid!, by: 'server', url: 'http://localhost:3000', start: startOf(child.pid!) });
    expect(() => lockDataDir(dir, 'admin')).toThrow(DataDirBusyError);
    expect(() => lockDataDir(dir, 'admin')).toThrow(
      /Assistente is running on .* \(pid \d+, http:\/\/localhost:3000\)/,
    );
  });

  it('takes over a lock whose holder is gone', () => {
    leaveLock({ pid: 2 ** 22 + 12345, by: 'server' });
    const lock = lockDataDir(dir, 'server');
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid, by: 'server' });
    lock.release();
  });

  it('takes over a lock whose holder was killed and is still a zombie', async () => {
    // The parent forks a child that exits at once and is never reaped: a zombie, as after `kill -9`
    // of a server whose parent (a shell, a supervisor) has not waited for it yet.
    const { line } = await start('python3', [
      '-c',
      'import os, sys, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(30)',
    ]);
    const zombie = Number(line);
    await expect.poll(() => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]?.[0]).toBe('Z');
    leaveLock({ pid: zombie, by: 'server', start: startOf(zombie) });
    const lock = lockDataDir(dir, 'server');
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid a later process reuses', async () => {
    const { child } = await start('sh', ['-c', 'echo up; exec sleep 30']);
    leaveLock({ pid: child.pid!, by: 'server', start: startOf(child.pid!) - 1 });
    const lock = lockDataDir(dir, 'server');
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).start).toBe(startOf(process.pid));
    lock.release();
  });

  it('keeps honouring a lock written before start times were recorded', async () => {
    const { child } = await start('sh', ['-c', 'echo up; exec sleep 30']);
    leaveLock({ pid: child.pid!, by: 'admin' });
    expect(() => lockDataDir(dir, 'server')).toThrow(/Another admin command is using/);
  });
});
