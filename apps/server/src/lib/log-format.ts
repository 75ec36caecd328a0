const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
/** Fields every pino line carries, or that the message already says. */
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

/**
 * A person's terminal gets one short line per log entry instead of pino's JSON (LOG_FORMAT=pretty,
 * the default on a TTY); production keeps JSON for its log shipper.
 */
export function humanLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toTimeString().slice(0, 8);
  const level = (LEVELS[entry.level as number] ?? 'info').toUpperCase().padEnd(5);
  const extra = Object.entries(entry)
    .filter(([k]) => !SKIP.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const tail = err ? `\n  ${err.stack ?? err.message ?? ''}` : '';
  return `${time} ${level} ${String(entry.msg ?? '')}${extra ? `  ${extra}` : ''}${tail}\n`;
}

/** A pino destination writing {@link humanLogLine}s to stdout. */
export const humanLogStream = {
  write(line: string): void {
    process.stdout.write(humanLogLine(line));
  },
};
