// Listing the users of a 10,000-user domain: the first page against a page ~150 pages deep.
// Keyset paging over (domain_id, display_name, id) should make both cost the same; the budget
// allows the deep page twice the first page's p50.
import { pathToFileURL } from 'node:url';
import { users } from '../apps/server/src/db/schema/index.ts';
import { eulaRecord } from '../apps/server/src/modules/accounts/provision.ts';
import { makeDomain, makeUser } from '../apps/server/src/test/factories.ts';
import { inProcessApp, percentile } from './in-process.ts';

const USERS = 10_000;
const PAGE = 50;
const DEEP_PAGES = 150;
const SAMPLES = 200;

export interface UsersListBench {
  users: number;
  pageSize: number;
  deepPageIndex: number;
  samples: number;
  firstPage: { p50: number; p99: number };
  deepPage: { p50: number; p99: number };
  /** deepPage.p50 / firstPage.p50 */
  ratio: number;
  budget: { maxRatio: number; ok: boolean };
}

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Eduarda', 'Fábio', 'Gabriela', 'Heitor', 'Isabela', 'João'];
const LAST = [
  'Silva',
  'Souza',
  'Oliveira',
  'Santos',
  'Lima',
  'Pereira',
  'Costa',
  'Rodrigues',
  'Almeida',
  'Nunes',
];

/** Seeds a domain with 10,000 users, then times GET /api/v1/user?limit=50 first and deep pages. */
export async function benchUsersList(): Promise<UsersListBench> {
  const { app, ctx, close } = await inProcessApp('users');
  try {
    const where = await makeDomain(ctx, { id: 'bench.example.com' });
    const admin = await makeUser(ctx, { role: 'Admin', domain: where, displayName: 'Bench Admin' });

    // Straight into the table in batches: the bench measures reading, not inviting.
    const eula = eulaRecord(true);
    const creator = { name: 'Bench', email: 'bench@bench.example.com' };
    for (let start = 0; start < USERS; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, USERS - start) }, (_, k) => {
        const i = start + k;
        const email = `user${String(i).padStart(5, '0')}@bench.example.com`;
        return {
          id: email,
          email,
          // Many equal names, so the id tie-break is exercised too.
          displayName: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i % 97}`,
          domainId: where.domain.id,
          departmentId: where.department.id,
          role: 'Viewer' as const,
          creator,
          eula,
        };
      });
      await ctx.db.insert(users).values(rows);
    }
    await ctx.db.execute('analyze users');

    const fetchPage = async (cursor?: string) => {
      const url = `/api/v1/user?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await app.inject({ method: 'GET', url, headers: admin.headers });
      if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`);
      return res;
    };

    let cursor: string | undefined;
    for (let i = 0; i < DEEP_PAGES; i++) {
      const res = await fetchPage(cursor);
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (!cursor) throw new Error(`the list ended after ${i + 1} pages`);
    }
    const deepCursor = cursor;

    const time = async (c?: string) => {
      const t0 = performance.now();
      await fetchPage(c);
      return performance.now() - t0;
    };
    // Warm both, then alternate so drift in machine load hits both alike.
    for (let i = 0; i < 20; i++) {
      await time();
      await time(deepCursor);
    }
    const first: number[] = [];
    const deep: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      first.push(await time());
      deep.push(await time(deepCursor));
    }
    first.sort((x, y) => x - y);
    deep.sort((x, y) => x - y);
    const firstPage = { p50: percentile(first, 50), p99: percentile(first, 99) };
    const deepPage = { p50: percentile(deep, 50), p99: percentile(deep, 99) };
    const ratio = Math.round((deepPage.p50 / firstPage.p50) * 1000) / 1000;
    return {
      users: USERS,
      pageSize: PAGE,
      deepPageIndex: DEEP_PAGES,
      samples: SAMPLES,
      firstPage,
      deepPage,
      ratio,
      budget: { maxRatio: 2, ok: ratio <= 2 },
    };
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchUsersList();
  console.log(JSON.stringify(result, null, 2));
  if (!result.budget.ok) process.exitCode = 1;
}
