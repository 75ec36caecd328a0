import {
  type Budget,
  type BudgetInput,
  type BudgetList,
  type BudgetStatus,
  percentUsed,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { randomBase62 } from '../../lib/random-id.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import { budgetsChanged, covering, domainBudgets } from './admission.ts';
import type { BudgetRow } from './budgets-store.ts';
import { budgetNotFound, budgetScopeMissing, budgetTaken } from './errors.ts';
import type { LedgerEntry } from './ledger.ts';
import { periodOf } from './periods.ts';
import { authorize } from './policy.ts';
import { type UsageState, zoneOf } from './state.ts';

// A domain's budgets (docs/ARCHITECTURE.md#usage-prices-and-budgets): Admins of the domain set
// them, a SuperAdmin any domain's; each answer carries what the current period has used.

type Use = { costMicros: number; tokens: number; periodStart: Date; resetsAt: Date };

/** What each budget's current period has used (held reservations not counted: they may be released). */
async function currentUse(
  s: UsageState,
  domainId: string,
  rows: readonly BudgetRow[],
): Promise<Map<string, Use>> {
  const zone = await zoneOf(s, domainId);
  const now = new Date();
  const keys = rows.map((b) => ({ budgetId: b.id, ...periodOf(b.period, zone, now) }));
  const found = new Map(
    (await s.budgetsStore.periods(keys)).map((p) => [`${p.budgetId}@${p.periodStart.getTime()}`, p]),
  );
  const out = new Map<string, Use>();
  for (const k of keys) {
    const row = found.get(`${k.budgetId}@${k.start.getTime()}`);
    out.set(k.budgetId, {
      costMicros: row?.usedCostMicros ?? 0,
      tokens: row?.usedTokens ?? 0,
      periodStart: k.start,
      resetsAt: k.resetsAt,
    });
  }
  return out;
}

const useOf = (u: Use) => ({
  costMicros: u.costMicros,
  tokens: u.tokens,
  periodStart: u.periodStart.toISOString(),
  resetsAt: u.resetsAt.toISOString(),
});

const limitOf = (b: BudgetRow) => ({
  ...(b.limitCostMicros !== null ? { costMicros: b.limitCostMicros } : {}),
  ...(b.limitTokens !== null ? { tokens: b.limitTokens } : {}),
});

const scopeOf = (b: BudgetRow): Budget['scope'] =>
  b.scopeKind === 'department'
    ? { kind: 'department', departmentId: b.scopeId }
    : b.scopeKind === 'user'
      ? { kind: 'user', userId: b.scopeId }
      : { kind: 'domain' };

async function toBudgets(s: UsageState, domainId: string, rows: readonly BudgetRow[]): Promise<Budget[]> {
  const [use, names] = await Promise.all([
    currentUse(s, domainId, rows),
    s.ctx.services.organisation.namesIn(domainId, {
      userIds: rows.filter((b) => b.scopeKind === 'user').map((b) => b.scopeId),
      departmentIds: rows.filter((b) => b.scopeKind === 'department').map((b) => b.scopeId),
    }),
  ]);
  return rows.map((b) => ({
    id: b.id,
    domain: b.domainId,
    scope: scopeOf(b),
    scopeLabel:
      b.scopeKind === 'domain'
        ? b.domainId
        : ((b.scopeKind === 'user' ? names.users : names.departments).get(b.scopeId) ?? b.scopeId),
    period: b.period,
    limit: limitOf(b),
    warnAtPercent: b.warnAtPercent,
    used: useOf(use.get(b.id) as Use),
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  }));
}

/** The domain a budget call acts on, once the caller may manage its budgets. */
async function budgetDomain(
  s: UsageState,
  caller: UserCaller,
  requested: string | undefined,
): Promise<string> {
  const domainId = await existingActingDomain(s.ctx.db, caller, requested);
  authorize(caller, 'manageBudgets', domainId, 'You may not manage this organisation’s budgets');
  return domainId;
}

/** The budget `id`, if the caller may manage its domain's budgets; else 404 (it might not exist). */
async function findManaged(s: UsageState, caller: UserCaller, id: string): Promise<BudgetRow> {
  const row = await s.budgetsStore.find(id);
  if (!row) throw budgetNotFound();
  try {
    authorize(caller, 'manageBudgets', row.domainId);
  } catch {
    throw budgetNotFound();
  }
  return row;
}

/** The scope's id as stored, once it is checked to be a department or a person of the domain. */
async function scopeId(s: UsageState, domainId: string, scope: BudgetInput['scope']): Promise<string> {
  if (scope.kind === 'domain') return '';
  const id = scope.kind === 'user' ? scope.userId.trim().toLowerCase() : scope.departmentId;
  const names = await s.ctx.services.organisation.namesIn(domainId, {
    userIds: scope.kind === 'user' ? [id] : [],
    departmentIds: scope.kind === 'department' ? [id] : [],
  });
  if (!(scope.kind === 'user' ? names.users : names.departments).has(id))
    throw budgetScopeMissing(scope.kind);
  return id;
}

export async function listBudgets(
  s: UsageState,
  caller: UserCaller,
  q: { domain?: string },
): Promise<BudgetList> {
  const domainId = await budgetDomain(s, caller, q.domain);
  return { items: await toBudgets(s, domainId, await s.budgetsStore.forDomain(domainId)) };
}

export async function createBudget(
  s: UsageState,
  caller: UserCaller,
  input: BudgetInput,
  meta: AuditMeta,
): Promise<Budget> {
  const domainId = await budgetDomain(s, caller, input.domain);
  const id = await scopeId(s, domainId, input.scope);
  const row = await s.ctx.db.transaction(async (tx) => {
    const made = await s.budgetsStore.insert(tx, {
      id: `bu_${randomBase62(16)}`,
      domainId,
      scopeKind: input.scope.kind,
      scopeId: id,
      period: input.period,
      limitCostMicros: input.limit.costMicros ?? null,
      limitTokens: input.limit.tokens ?? null,
      warnAtPercent: input.warnAtPercent,
    });
    if (!made) throw budgetTaken();
    await recordAudit(tx, caller, meta, {
      action: 'budget.create',
      targetType: 'budget',
      targetId: made.id,
      domainId,
      after: {
        scope: input.scope,
        period: input.period,
        limit: input.limit,
        warnAtPercent: input.warnAtPercent,
      },
    });
    return made;
  });
  await budgetsChanged(s, domainId);
  return (await toBudgets(s, domainId, [row]))[0] as Budget;
}

export async function updateBudget(
  s: UsageState,
  caller: UserCaller,
  id: string,
  input: BudgetInput,
  meta: AuditMeta,
): Promise<Budget> {
  const before = await findManaged(s, caller, id);
  const scope = await scopeId(s, before.domainId, input.scope);
  // Read before the transaction: on PGlite the transaction holds the one connection.
  const taken = (await s.budgetsStore.forDomain(before.domainId)).some(
    (b) =>
      b.id !== id && b.scopeKind === input.scope.kind && b.scopeId === scope && b.period === input.period,
  );
  if (taken) throw budgetTaken();
  const row = await s.ctx.db.transaction(async (tx) => {
    const updated = await s.budgetsStore.update(tx, id, {
      scopeKind: input.scope.kind,
      scopeId: scope,
      period: input.period,
      limitCostMicros: input.limit.costMicros ?? null,
      limitTokens: input.limit.tokens ?? null,
      warnAtPercent: input.warnAtPercent,
    });
    if (!updated) throw budgetNotFound();
    await recordAudit(tx, caller, meta, {
      action: 'budget.update',
      targetType: 'budget',
      targetId: id,
      domainId: before.domainId,
      before: {
        scope: scopeOf(before),
        period: before.period,
        limit: limitOf(before),
        warnAtPercent: before.warnAtPercent,
      },
      after: {
        scope: input.scope,
        period: input.period,
        limit: input.limit,
        warnAtPercent: input.warnAtPercent,
      },
    });
    return updated;
  });
  await budgetsChanged(s, before.domainId);
  return (await toBudgets(s, before.domainId, [row]))[0] as Budget;
}

export async function deleteBudget(
  s: UsageState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<void> {
  const row = await findManaged(s, caller, id);
  await s.ctx.db.transaction(async (tx) => {
    await s.budgetsStore.remove(tx, id);
    await recordAudit(tx, caller, meta, {
      action: 'budget.delete',
      targetType: 'budget',
      targetId: id,
      domainId: row.domainId,
      before: { scope: scopeOf(row), period: row.period, limit: limitOf(row) },
    });
  });
  await budgetsChanged(s, row.domainId);
}

/** The budgets that cover someone, with what their periods used: `GET /api/v1/usage/me` and the banner. */
export async function budgetStatuses(
  s: UsageState,
  who: Pick<LedgerEntry, 'domainId' | 'departmentId' | 'userId'>,
): Promise<BudgetStatus[]> {
  const rows = covering(await domainBudgets(s, who.domainId), who);
  const use = await currentUse(s, who.domainId, rows);
  return rows.map((b) => {
    const u = use.get(b.id) as Use;
    const limit = limitOf(b);
    return {
      budgetId: b.id,
      scope: b.scopeKind,
      period: b.period,
      limit,
      used: useOf(u),
      percent: Math.round(percentUsed(limit, u) * 10) / 10,
      warnAtPercent: b.warnAtPercent,
    };
  });
}
