import { createHash } from 'node:crypto';
import {
  USAGE_MAX_RANGE_DAYS,
  type UsageMe,
  type UsageRow,
  type UsageSummary,
  type UsageSummaryQuery,
  type UsageTotals,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { budgetStatuses } from './budgets.ts';
import { dayIn } from './periods.ts';
import { authorize } from './policy.ts';
import type { GroupSums } from './reports-store.ts';
import { type UsageState, zoneOf } from './state.ts';

/*
 * Usage reports (docs/ARCHITECTURE.md#usage-prices-and-budgets), read from the day roll-ups only:
 * a year of a large domain is thousands of rows, never its millions of events.
 */

const DAY_MS = 86_400_000;

/** A short stable name for an erased person's id: the same person reads the same in every report. */
export function pseudonym(id: string): string {
  return createHash('sha256').update(`usage:${id}`).digest('hex').slice(0, 8);
}

/** What an erased person's ledger rows hold instead of their id (docs/ARCHITECTURE.md#export-and-erasure). */
export const ERASED_PREFIX = 'deleted:';
export const erasedKey = (id: string) => `${ERASED_PREFIX}${pseudonym(id)}`;

/** The domain a report reads, once the caller may read its usage. */
async function reportDomain(s: UsageState, caller: UserCaller, requested: string | undefined) {
  const domainId = await existingActingDomain(s.ctx.db, caller, requested);
  authorize(caller, 'readReports', domainId, 'You may not read this organisation’s usage');
  return domainId;
}

function checkRange(from: string, to: string): void {
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) throw invalidField('to', 'must not be before from');
  if (days > USAGE_MAX_RANGE_DAYS)
    throw invalidField('from', `a report covers at most ${USAGE_MAX_RANGE_DAYS} days`);
}

function totalOf(rows: readonly GroupSums[]): UsageTotals {
  const t = { calls: 0, inputTokens: 0, outputTokens: 0, costMicros: 0, unpricedCalls: 0 };
  for (const r of rows) {
    t.calls += r.calls;
    t.inputTokens += r.inputTokens;
    t.outputTokens += r.outputTokens;
    t.costMicros += r.costMicros;
    t.unpricedCalls += r.unpricedCalls;
  }
  return t;
}

/**
 * Names for the groups' ids, one query per kind: people and departments from accounts, santitos
 * from santitos. An erased person's id never leaves: key and label carry its pseudonym.
 */
async function labelled(
  s: UsageState,
  domainId: string,
  groupBy: UsageSummaryQuery['groupBy'],
  rows: GroupSums[],
): Promise<UsageRow[]> {
  const ids = rows.map((r) => r.key).filter(Boolean);
  if (groupBy === 'user' || groupBy === 'department') {
    const names = await s.ctx.services.organisation.namesIn(domainId, {
      userIds: groupBy === 'user' ? ids : [],
      departmentIds: groupBy === 'department' ? ids : [],
    });
    const map = groupBy === 'user' ? names.users : names.departments;
    return rows.map((r) => {
      if (!r.key) return { ...r, label: groupBy === 'user' ? 'No person' : 'No department' };
      const name = map.get(r.key);
      if (name !== undefined) return { ...r, label: name };
      if (groupBy === 'department') return { ...r, label: 'Deleted department' };
      // Pseudonymised when they were erased; an id without a person (a row older than erasure) is named here.
      const alias = r.key.startsWith(ERASED_PREFIX) ? r.key.slice(ERASED_PREFIX.length) : pseudonym(r.key);
      return { ...r, key: `deleted:${alias}`, label: `Deleted user ${alias}` };
    });
  }
  if (groupBy === 'santito') {
    const names = await s.ctx.services.santitos.santitoNames(domainId, ids);
    return rows.map((r) => ({
      ...r,
      label: r.key ? (names.get(r.key) ?? 'Deleted santito') : 'No santito',
    }));
  }
  return rows.map((r) => ({ ...r, label: r.key }));
}

/** `GET /api/v1/usage/summary`: a domain's usage over a range of its days, by one group. */
export async function summary(
  s: UsageState,
  caller: UserCaller,
  q: UsageSummaryQuery,
): Promise<UsageSummary> {
  checkRange(q.from, q.to);
  const domainId = await reportDomain(s, caller, q.domain);
  const sums = await s.reportsStore.sums({ domainId, from: q.from, to: q.to, groupBy: q.groupBy });
  return { rows: await labelled(s, domainId, q.groupBy, sums), total: totalOf(sums) };
}

/** `GET /api/v1/usage/me`: the caller's own usage this month (the domain's days), by model. */
export async function me(s: UsageState, caller: UserCaller): Promise<UsageMe> {
  const domainId = caller.domain.id;
  const to = dayIn(await zoneOf(s, domainId), new Date());
  const from = `${to.slice(0, 8)}01`;
  const [sums, budgets] = await Promise.all([
    s.reportsStore.sums({ domainId, from, to, groupBy: 'model', userId: caller.user.id }),
    budgetStatuses(s, { domainId, departmentId: caller.user.departmentId, userId: caller.user.id }),
  ]);
  return {
    from,
    to,
    total: totalOf(sums),
    byModel: sums.map((r) => ({ ...r, label: r.key })),
    budgets,
  };
}

// ---- CSV (RFC 4180) ----

/** A field quoted when it holds a comma, quote or line break; a formula's lead character defused. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Micros as a decimal amount, exactly (no float on the way). */
export function decimalOf(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const m = Math.abs(micros);
  return `${sign}${Math.floor(m / 1_000_000)}.${String(m % 1_000_000).padStart(6, '0')}`;
}

const CSV_HEADER = ['key', 'label', 'calls', 'input_tokens', 'output_tokens', 'cost_usd', 'unpriced_calls'];

/** The summary's rows as CSV lines (header first, CRLF-terminated), for a streamed download. */
export async function* csvLines(rows: readonly UsageRow[]): AsyncGenerator<string> {
  yield `${CSV_HEADER.join(',')}\r\n`;
  for (const r of rows) {
    yield `${[
      csvField(r.key),
      csvField(r.label),
      String(r.calls),
      String(r.inputTokens),
      String(r.outputTokens),
      decimalOf(r.costMicros),
      String(r.unpricedCalls),
    ].join(',')}\r\n`;
  }
}
