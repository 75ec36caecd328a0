import { fromMicros, USAGE_MAX_RANGE_DAYS, type UsageRow } from '@assistente/contracts';

// The Spend tab's pure parts: ranges of days, the chart's days, money and counts in the reader's
// language. Days are calendar days (YYYY-MM-DD); the server reads them in the domain's time zone.

export const RANGE_PRESETS = ['last_7_days', 'last_30_days', 'this_month', 'last_month', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

/** A local date as YYYY-MM-DD (the reader's calendar, not UTC's: "today" is the day they live in). */
export function isoDay(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** The days a preset covers on `today`; 'custom' starts as this month so far. */
export function presetRange(preset: RangePreset, today: Date = new Date()): DayRange {
  const y = today.getFullYear();
  const m = today.getMonth();
  const d = today.getDate();
  switch (preset) {
    case 'last_7_days':
      return { from: isoDay(new Date(y, m, d - 6)), to: isoDay(today) };
    case 'last_30_days':
      return { from: isoDay(new Date(y, m, d - 29)), to: isoDay(today) };
    case 'last_month':
      // Day 0 of this month is the last day of the previous one.
      return { from: isoDay(new Date(y, m - 1, 1)), to: isoDay(new Date(y, m, 0)) };
    default:
      return { from: isoDay(new Date(y, m, 1)), to: isoDay(today) };
  }
}

/** Calendar arithmetic on YYYY-MM-DD in UTC, where every day has 24 hours. */
function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export type RangeProblem = 'incomplete' | 'order' | 'too_long';

/** Why a range would be refused by the server (the same rules), or null: it is asked only when valid. */
export function rangeProblem({ from, to }: DayRange): RangeProblem | null {
  if (!DAY_PATTERN.test(from) || !DAY_PATTERN.test(to)) return 'incomplete';
  const start = dayNumber(from);
  const end = dayNumber(to);
  if (Number.isNaN(start) || Number.isNaN(end)) return 'incomplete';
  if (end < start) return 'order';
  if (end - start + 1 > USAGE_MAX_RANGE_DAYS) return 'too_long';
  return null;
}

export interface ChartDay {
  day: string;
  /** Decimal USD, for the axis; priced calls only. */
  cost: number;
  tokens: number;
}

/** Every day of the range, a day without usage as zero, so the chart's bars keep the calendar. */
export function chartDays(rows: readonly UsageRow[], { from, to }: DayRange): ChartDay[] {
  const byDay = new Map(rows.map((row) => [row.key, row]));
  const days: ChartDay[] = [];
  const end = dayNumber(to);
  for (let n = dayNumber(from); n <= end; n += 1) {
    const day = new Date(n * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(day);
    days.push({
      day,
      cost: row ? fromMicros(row.costMicros) : 0,
      tokens: row ? row.inputTokens + row.outputTokens : 0,
    });
  }
  return days;
}

/** The table's order: the most expensive first; among equals, the busiest; then by name. */
export function byCost(rows: readonly UsageRow[]): UsageRow[] {
  return [...rows].sort(
    (a, b) => b.costMicros - a.costMicros || b.calls - a.calls || a.label.localeCompare(b.label),
  );
}

/**
 * Micros as USD in the reader's language. Cents hide what a few test calls cost (a thousandth of a
 * cent each), so an amount under one dollar shows up to six decimals, trimmed.
 */
export function formatMoney(micros: number, locale: string): string {
  const amount = fromMicros(micros);
  const small = amount !== 0 && Math.abs(amount) < 1;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: small ? 6 : 2,
  }).format(amount);
}

/** A count (calls, tokens) with the language's grouping. */
export function formatCount(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** A count as the chart's axis shows it: 1.2K, 3M. */
export function formatCompact(n: number, locale: string): string {
  return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/** A day of the chart's axis in the reader's language: "12 mar." / "Mar 12". */
export function formatDay(day: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}
