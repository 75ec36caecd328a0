import type { BudgetPeriod } from '@assistente/contracts';

// A budget's period is a calendar day, ISO week (from Monday) or month in the domain's time zone:
// its start and end are the instants that local midnight falls on, daylight saving included.

interface LocalDate {
  year: number;
  month: number; // 1–12
  day: number;
}

const partsFormat = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let f = partsFormat.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormat.set(zone, f);
  }
  return f;
}

/** The wall-clock fields of `at` in `zone`. */
function wallClock(zone: string, at: Date): LocalDate & { hour: number; minute: number; second: number } {
  const out: Record<string, number> = {};
  for (const p of formatFor(zone).formatToParts(at)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return {
    year: out.year ?? 1970,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `at` as a calendar day (YYYY-MM-DD) in `zone`. */
export function dayIn(zone: string, at: Date): string {
  const d = wallClock(zone, at);
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/** How far `zone` is ahead of UTC at `at`, in ms. */
function offsetAt(zone: string, at: Date): number {
  const w = wallClock(zone, at);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant of local midnight starting `d` in `zone` (checked again across a DST change). */
function midnight(zone: string, d: LocalDate): Date {
  const guess = Date.UTC(d.year, d.month - 1, d.day);
  let at = guess - offsetAt(zone, new Date(guess));
  const again = guess - offsetAt(zone, new Date(at));
  if (again !== at) at = again;
  return new Date(at);
}

/** `d` moved by whole days or months, on the calendar (not by 24 h steps). */
function shift(d: LocalDate, by: { days?: number; months?: number }): LocalDate {
  const x = new Date(Date.UTC(d.year, d.month - 1 + (by.months ?? 0), d.day + (by.days ?? 0)));
  return { year: x.getUTCFullYear(), month: x.getUTCMonth() + 1, day: x.getUTCDate() };
}

/** The period of `kind` that holds `at` in `zone`: its first instant and the one it resets at. */
export function periodOf(kind: BudgetPeriod, zone: string, at: Date): { start: Date; resetsAt: Date } {
  const today = wallClock(zone, at);
  let first: LocalDate;
  let next: LocalDate;
  if (kind === 'day') {
    first = today;
    next = shift(today, { days: 1 });
  } else if (kind === 'week') {
    const weekday = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay(); // 0 = Sunday
    first = shift(today, { days: -((weekday + 6) % 7) });
    next = shift(first, { days: 7 });
  } else {
    first = { year: today.year, month: today.month, day: 1 };
    next = shift(first, { months: 1 });
  }
  return { start: midnight(zone, first), resetsAt: midnight(zone, next) };
}
