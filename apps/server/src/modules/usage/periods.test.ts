import { describe, expect, it } from 'vitest';
import { dayIn, periodOf } from './periods.ts';

const iso = (p: { start: Date; resetsAt: Date }) => [p.start.toISOString(), p.resetsAt.toISOString()];

describe('budget periods in the domain’s time zone', () => {
  it('a day, an ISO week and a month start at local midnight', () => {
    // 23:30 on Sunday 1 March 2026 in São Paulo (UTC−3) is 02:30 UTC on Monday 2 March.
    const at = new Date('2026-03-02T02:30:00Z');
    expect(iso(periodOf('day', 'America/Sao_Paulo', at))).toEqual([
      '2026-03-01T03:00:00.000Z',
      '2026-03-02T03:00:00.000Z',
    ]);
    expect(iso(periodOf('week', 'America/Sao_Paulo', at))).toEqual([
      '2026-02-23T03:00:00.000Z',
      '2026-03-02T03:00:00.000Z',
    ]);
    expect(iso(periodOf('month', 'America/Sao_Paulo', at))).toEqual([
      '2026-03-01T03:00:00.000Z',
      '2026-04-01T03:00:00.000Z',
    ]);
    expect(iso(periodOf('month', 'UTC', at))).toEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
    ]);
  });

  it('follows daylight saving: a day across the change is 23 h, and December rolls into January', () => {
    // Europe/Berlin springs forward on 29 March 2026.
    const p = periodOf('day', 'Europe/Berlin', new Date('2026-03-29T12:00:00Z'));
    expect(iso(p)).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    expect(iso(periodOf('month', 'Europe/Berlin', new Date('2026-12-31T23:30:00Z')))).toEqual([
      '2026-12-31T23:00:00.000Z',
      '2027-01-31T23:00:00.000Z',
    ]);
  });
});

describe('dayIn', () => {
  it('is the calendar day of the instant in the zone, padded', () => {
    expect(dayIn('America/Sao_Paulo', new Date('2026-11-30T01:00:00Z'))).toBe('2026-11-29');
    expect(dayIn('Asia/Tokyo', new Date('2026-12-31T15:00:00Z'))).toBe('2027-01-01');
  });
});
