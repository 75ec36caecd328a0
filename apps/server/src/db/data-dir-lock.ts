import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Who holds a data directory's embedded database. */
export interface LockHolder {
  pid: number;
  /** What holds it: the server, or the admin command. */
  by: 'server' | 'admin';
  /** Where the server listens, once it does. */
  url?: string;
  /** When the holder started (Linux: clock ticks since boot), so a reused pid is not taken for it. */
  start?: number;
}

/** The embedded database is open in another process: opening it too would lose what either writes. */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      holder.by === 'server'
        ? `Assistente is running on ${dataDir} (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}).`
        : `Another admin command is using ${dataDir} (pid ${holder.pid}).`,
    );
  }
}

/** What Linux says of a process: its state letter and its start time; undefined elsewhere or when gone. */
function procStat(pid: number): { state: string; start: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so fields count from its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', start: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's holder still runs. A zombie (killed, not yet reaped by its parent) holds
 * nothing, and a live process with another start time is a later one that reused the pid.
 */
function holderAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(holder.pid);
  if (!stat) return true;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return holder.start === undefined || holder.start === stat.start;
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined;
  }
}

export interface DataDirLock {
  /** Records where the server listens, for the admin command's messages. */
  update(fields: Partial<LockHolder>): void;
  release(): void;
}

/**
 * PGlite is one process's database: a second process opening the same directory (the admin
 * command beside a running server, a second `npm start`) would write behind the first one's back,
 * and its writes are lost. Whoever opens it first holds `DATA_DIR/pglite.lock`; a lock left by a
 * process that died (a zombie too, or one whose pid a later process reuses) is taken over.
 */
export function lockDataDir(dataDir: string, by: LockHolder['by']): DataDirLock {
  const file = path.join(dataDir, 'pglite.lock');
  const start = procStat(process.pid)?.start;
  let holder: LockHolder = { pid: process.pid, by, ...(start === undefined ? {} : { start }) };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(holder));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const other = readHolder(file);
      if (other && other.pid !== process.pid && holderAlive(other))
        throw new DataDirBusyError(dataDir, other);
      rmSync(file, { force: true });
    }
  }
  const release = () => {
    if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    process.off('exit', release);
  };
  // A normal exit (even one that skips close) leaves no lock behind.
  process.on('exit', release);
  return {
    update(fields) {
      holder = { ...holder, ...fields };
      writeFileSync(file, JSON.stringify(holder));
    },
    release,
  };
}

const URL_FILE = 'server-url';

/** Notes where the server listens, so the admin command can print the real sign-in address later. */
export function rememberUrl(config: { dataDir: string; publicUrl: string }): void {
  try {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(path.join(config.dataDir, URL_FILE), `${config.publicUrl}\n`);
  } catch {
    // Only a convenience for the admin command's message.
  }
}

/** The address the server last listened at on this data directory, if it ever did. */
export function rememberedUrl(dataDir: string): string | undefined {
  try {
    return readFileSync(path.join(dataDir, URL_FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
