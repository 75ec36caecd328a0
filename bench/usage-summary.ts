// GET /api/v1/usage/summary over a year of a 200-person domain: 1,000,000 model calls as the
// day roll-ups the ledger keeps (docs/ARCHITECTURE.md#usage-prices-and-budgets), on the embedded
// database. Budget: p95 ≤ 200 ms for every groupBy.
import { pathToFileURL } from 'node:url';
import { UsageGroupBys } from '@assistente/contracts';
import { sql } from 'drizzle-orm';
import { usageDaily, users } from '../apps/server/src/db/schema/index.ts';
import { eulaRecord } from '../apps/server/src/modules/accounts/provision.ts';
import { dayIn } from '../apps/server/src/modules/usage/periods.ts';
import { makeDepartment, makeDomain, makeUser } from '../apps/server/src/test/factories.ts';
import { inProcessApp, percentile } from './in-process.ts';

const USERS = 200;
const DEPARTMENTS = 10;
const MODELS = 5;
const SOURCES = ['chat', 'api', 'embedded'] as const;
const DAYS = 365;
/** Model and source pairs a person uses on a day (of the 15 there are). */
const PAIRS_A_DAY = 3;
const EVENTS = 1_000_000;
const SAMPLES = 30;
const BUDGET_P95_MS = 200;

export interface UsageSummaryBench {
  events: number;
  rollupRows: number;
  samplesPerGroup: number;
  byGroup: Record<string, { p50: number; p95: number; rows: number }>;
  budget: { maxP95Ms: number; ok: boolean };
}

export async function benchUsageSummary(): Promise<UsageSummaryBench> {
  const { app, ctx, close } = await inProcessApp('usage');
  try {
    const where = await makeDomain(ctx, { id: 'usage.bench.example.com' });
    const admin = await makeUser(ctx, { role: 'Admin', domain: where, displayName: 'Bench Admin' });
    const departments: string[] = [];
    for (let i = 0; i < DEPARTMENTS; i++)
      departments.push((await makeDepartment(ctx, where.domain.id, `Department ${i}`)).id);
    const eula = eulaRecord(true);
    const creator = { name: 'Bench', email: 'bench@usage.bench.example.com' };
    await ctx.db.insert(users).values(
      Array.from({ length: USERS }, (_, i) => {
        const email = `person${String(i).padStart(3, '0')}@usage.bench.example.com`;
        return {
          id: email,
          email,
          displayName: `Person ${i}`,
          domainId: where.domain.id,
          departmentId: departments[i % DEPARTMENTS] as string,
          role: 'Viewer' as const,
          creator,
          eula,
        };
      }),
    );

    // The roll-ups of a year in one statement: each person, each day, a few model and source pairs,
    // their calls spread so that they add up to about EVENTS.
    const to = dayIn('America/Sao_Paulo', new Date());
    const rows = USERS * DAYS * PAIRS_A_DAY;
    const base = Math.floor(EVENTS / rows);
    const extraShare = Math.round(((EVENTS - base * rows) / rows) * 1000);
    const deptArray = `ARRAY[${departments.map((d) => `'${d}'`).join(',')}]`;
    const sourceArray = `ARRAY[${SOURCES.map((s) => `'${s}'`).join(',')}]`;
    await ctx.db.execute(
      sql.raw(`
      insert into usage_daily (day, domain_id, department_id, user_id, santito_id, source, model,
        calls, input_tokens, output_tokens, cost_micros, unpriced_calls)
      select ('${to}'::date - d), '${where.domain.id}', (${deptArray})[1 + u % ${DEPARTMENTS}],
        'person' || lpad(u::text, 3, '0') || '@usage.bench.example.com',
        case when k = 0 then 'santito-' || (u % 20) else '' end,
        (${sourceArray})[1 + (u + k) % ${SOURCES.length}],
        'provider:model-' || ((u + d + k) % ${MODELS}),
        c.calls, c.calls * 900, c.calls * 250, c.calls * 3100, 0
      from generate_series(0, ${USERS - 1}) u, generate_series(0, ${DAYS - 1}) d, generate_series(0, ${PAIRS_A_DAY - 1}) k,
        lateral (select ${base} + (((u * 7919 + d * 104729 + k * 31) % 1000) < ${extraShare})::int as calls) c`),
    );
    await ctx.db.execute(sql.raw('analyze usage_daily'));
    const [counted] = await ctx.db
      .select({ n: sql<string>`count(*)::text`, calls: sql<string>`sum(${usageDaily.calls})::text` })
      .from(usageDaily);

    const from = dayIn('America/Sao_Paulo', new Date(Date.now() - DAYS * 86_400_000));
    const fetchSummary = async (groupBy: string) => {
      const url = `/api/v1/usage/summary?from=${from}&to=${to}&groupBy=${groupBy}`;
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: admin.headers });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`);
      return { ms, rows: (res.json() as { rows: unknown[] }).rows.length };
    };
    const byGroup: UsageSummaryBench['byGroup'] = {};
    for (const g of UsageGroupBys) await fetchSummary(g); // warm
    for (const g of UsageGroupBys) {
      const times: number[] = [];
      let n = 0;
      for (let i = 0; i < SAMPLES; i++) {
        const r = await fetchSummary(g);
        times.push(r.ms);
        n = r.rows;
      }
      times.sort((x, y) => x - y);
      byGroup[g] = { p50: percentile(times, 50, 1), p95: percentile(times, 95, 1), rows: n };
    }
    const worst = Math.max(...Object.values(byGroup).map((g) => g.p95));
    return {
      events: Number(counted?.calls ?? 0),
      rollupRows: Number(counted?.n ?? 0),
      samplesPerGroup: SAMPLES,
      byGroup,
      budget: { maxP95Ms: BUDGET_P95_MS, ok: worst <= BUDGET_P95_MS },
    };
  } finally {
    await close();
  }
}

export function describeUsageSummary(r: UsageSummaryBench): string {
  const groups = Object.entries(r.byGroup)
    .map(([g, t]) => `${g} p50 ${t.p50} ms p95 ${t.p95} ms`)
    .join('; ');
  return `Usage summary over a year, ${r.events.toLocaleString('en')} calls in ${r.rollupRows.toLocaleString('en')} day roll-ups: ${groups} (budget p95 ≤ ${r.budget.maxP95Ms} ms) ${r.budget.ok ? 'OK' : 'OVER BUDGET'}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchUsageSummary();
  console.log(describeUsageSummary(result));
  if (!result.budget.ok) process.exitCode = 1;
}
