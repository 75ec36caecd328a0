import { randomUUID } from 'node:crypto';
import { type AuditAction, type AuditTargetType, spansDomains } from '@assistente/contracts';
import { and, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { auditEntries } from '../../db/schema/index.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { type KeyedPage, keyedPage } from '../../lib/paging.ts';

export type Executor = Db | Tx;
export type AuditRow = typeof auditEntries.$inferSelect;

/** Where an administrative request came from. */
export interface AuditMeta {
  ip: string | null;
  userAgent: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  domainId: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

const SECRET_KEY = /pass(word)?|secret|token|hash|api[-_]?key|credential|oob/i;

/** A JSON copy without any key that looks like a secret, at any depth. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || SECRET_KEY.test(k)) continue;
      out[k] = redactSecrets(v);
    }
    return out;
  }
  return value;
}

const asRecord = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : null);

/** Only what changed between two records: `{ before: {role:'Viewer'}, after: {role:'Admin'} }`. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key] ?? null;
      a[key] = after[key] ?? null;
    }
  }
  return { before: b, after: a };
}

/**
 * The actor of what the server does by itself (a retention run): no person, so no one's id. Its
 * entries read `system` where others read an e-mail address.
 */
export const SYSTEM_ACTOR = { user: { id: 'system', email: 'system' } } as const;

/**
 * Records changes made by `caller`. Pass the transaction that makes the change, so the entry and
 * the change commit (or roll back) together.
 */
export async function recordAudit(
  db: Executor,
  /** A person, or whoever acts as one (a visitor's answer calling a tool). */
  caller: { user: { id: string; email: string } },
  meta: AuditMeta,
  records: AuditRecord | AuditRecord[],
): Promise<void> {
  const list = Array.isArray(records) ? records : [records];
  if (list.length === 0) return;
  await db.insert(auditEntries).values(
    list.map((r) => ({
      id: randomUUID(),
      domainId: r.domainId,
      actorId: caller.user.id,
      actorEmail: caller.user.email,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      before: r.before === undefined || r.before === null ? null : asRecord(redactSecrets(r.before)),
      after: r.after === undefined || r.after === null ? null : asRecord(redactSecrets(r.after)),
      ip: meta.ip?.slice(0, 64) ?? null,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    })),
  );
}

export interface AuditFilter {
  /** Only honoured for a SuperAdmin; everyone else reads their own domain. */
  requestedDomain?: string;
  action?: AuditAction;
  actor?: string;
  targetType?: AuditTargetType;
  targetId?: string;
  from?: Date;
  to?: Date;
  limit: number;
  /** `[at::text, id]` of the last entry of the previous page. */
  after?: [string, string];
}

export const AUDIT_CURSOR_TAG = 'audit';

/** A page of entries the caller may read, newest first; the tenant scope is applied here. */
export async function listAudit(
  db: Executor,
  caller: UserCaller,
  f: AuditFilter,
): Promise<KeyedPage<AuditRow>> {
  const scope: SQL | undefined = spansDomains(caller)
    ? f.requestedDomain
      ? eq(auditEntries.domainId, f.requestedDomain)
      : undefined
    : eq(auditEntries.domainId, caller.domain.id);
  const filter = and(
    scope,
    f.action ? eq(auditEntries.action, f.action) : undefined,
    f.actor ? eq(auditEntries.actorId, f.actor) : undefined,
    f.targetType ? eq(auditEntries.targetType, f.targetType) : undefined,
    f.targetId ? eq(auditEntries.targetId, f.targetId) : undefined,
    f.from ? gte(auditEntries.at, f.from) : undefined,
    f.to ? lt(auditEntries.at, f.to) : undefined,
  );
  const after = f.after
    ? sql`(${auditEntries.at}, ${auditEntries.id}) < (${f.after[0]}::timestamptz, ${f.after[1]})`
    : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select({ row: auditEntries, key: sql<string>`${auditEntries.at}::text` })
      .from(auditEntries)
      .where(and(filter, after))
      .orderBy(desc(auditEntries.at), desc(auditEntries.id))
      .limit(f.limit + 1),
    db.select({ n: count() }).from(auditEntries).where(filter),
  ]);
  return keyedPage(
    rows,
    f.limit,
    totals[0]?.n ?? 0,
    (r) => [r.key, r.row.id],
    (r) => r.row,
  );
}

/** The newest entry of `action` in `domainId` at or after `since` (what a job recorded for one domain). */
export async function latestEntry(
  db: Executor,
  domainId: string,
  action: AuditAction,
  since: Date,
): Promise<AuditRow | undefined> {
  const [row] = await db
    .select()
    .from(auditEntries)
    .where(
      and(eq(auditEntries.domainId, domainId), eq(auditEntries.action, action), gte(auditEntries.at, since)),
    )
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(1);
  return row;
}

/**
 * Runs a change on a store bound to one transaction and records its audit entries in it: both
 * commit, or neither.
 */
export function auditedTransaction<S, T>(
  db: Db,
  caller: UserCaller,
  meta: AuditMeta,
  storeFor: (tx: Tx) => S,
  run: (store: S) => Promise<{ result: T; audit: AuditRecord | AuditRecord[] }>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const { result, audit } = await run(storeFor(tx));
    await recordAudit(tx, caller, meta, audit);
    return result;
  });
}
