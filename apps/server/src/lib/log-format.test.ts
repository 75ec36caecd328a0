import { describe, expect, it } from 'vitest';
import { humanLogLine } from './log-format.ts';

describe('human log lines', () => {
  it('turns a pino JSON entry into one short line with its own fields', () => {
    const line = humanLogLine(
      JSON.stringify({
        level: 40,
        time: Date.UTC(2026, 0, 1, 12, 0, 5),
        pid: 1,
        hostname: 'h',
        msg: 'slow query',
        ms: 812,
      }),
    );
    expect(line).toMatch(/^\d\d:\d\d:\d\d WARN {2}slow query {2}ms=812\n$/);
    expect(line).not.toContain('hostname');
  });

  it('shows an error’s stack under its line, and passes non-JSON through', () => {
    const line = humanLogLine(
      JSON.stringify({ level: 50, time: 0, msg: 'boom', err: { message: 'x', stack: 'Error: x\n at y' } }),
    );
    expect(line).toContain('ERROR boom');
    expect(line).toContain('\n  Error: x');
    expect(humanLogLine('plain')).toBe('plain');
  });
});
