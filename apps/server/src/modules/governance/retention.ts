import {
  administersDomain,
  type MyRetention,
  type RetentionSettings,
  type RetentionView,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { actor, definePolicy } from '../../lib/policy.ts';
import type { JobCounts } from '../../lib/scheduler.ts';
import { existingActingDomain } from '../accounts/index.ts';
import {
  type AuditMeta,
  auditedTransaction,
  changedFields,
  recordAudit,
  SYSTEM_ACTOR,
} from '../audit/index.ts';
import type { ExpiryRule, Pause } from '../chats/index.ts';
import { type RetentionStore, retentionStore } from './retention-store.ts';

/*
 * Retention (docs/ARCHITECTURE.md#retention): each domain's rule, what it means for one person, and
 * the daily run that deletes what is past it through the services of the modules that own the data.
 */

/** The scheduler's name of the daily run. */
export const RETENTION_JOB = 'governance.retention';
const DAY_MS = 24 * 60 * 60_000;
export const RETENTION_EVERY_MS = DAY_MS;
/** Between two statements of a run: long enough for the flushes of streaming answers waiting behind it. */
const PAUSE_MS = 5;

export interface RetentionState {
  ctx: AppContext;
  store: RetentionStore;
}

export const createRetentionState = (ctx: AppContext): RetentionState => ({
  ctx,
  store: retentionStore(ctx.db),
});

const policy = definePolicy({
  manage: (caller, domainId: string) => administersDomain(actor(caller), domainId),
});

async function adminDomain(s: RetentionState, caller: UserCaller, requested?: string): Promise<string> {
  policy.authorize(caller, 'manage', caller.domain.id, 'Only Admins set retention');
  return existingActingDomain(s.ctx.db, caller, requested);
}

/**
 * The rule with its job's runs as one domain sees them: the last run's counts are this domain's (its
 * audit row), never the run's sums over every domain, and who ran it or why it failed (which may
 * name other domains) stays with the SuperAdmins' jobs list.
 */
async function view(
  s: RetentionState,
  domainId: string,
  settings: RetentionSettings,
): Promise<RetentionView> {
  const job = (await s.ctx.scheduler.list()).find((j) => j.name === RETENTION_JOB);
  const run = job?.lastRun ?? null;
  if (!run) return { settings, lastRun: null, nextRunAt: job?.nextRunAt ?? null };
  const recorded =
    run.status === 'running'
      ? null
      : await s.ctx.services.audit.recordedFor(domainId, 'retention.run', new Date(run.startedAt));
  const counts = Object.fromEntries(
    Object.entries(recorded ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number'),
  );
  return {
    settings,
    lastRun: { ...run, by: null, error: null, counts },
    nextRunAt: job?.nextRunAt ?? null,
  };
}

/** GET /api/v1/settings/retention */
export async function getSettings(
  s: RetentionState,
  caller: UserCaller,
  domain?: string,
): Promise<RetentionView> {
  const domainId = await adminDomain(s, caller, domain);
  return view(s, domainId, await s.store.read(domainId));
}

/**
 * Departments of the domain only, each only stricter than the domain's `chatsDays` when it has one.
 * 400 naming the first offending department.
 */
async function checkDepartments(s: RetentionState, domainId: string, body: RetentionSettings): Promise<void> {
  const ids = Object.keys(body.departments);
  if (ids.length === 0) return;
  const { departments } = await s.ctx.services.organisation.namesIn(domainId, {
    userIds: [],
    departmentIds: ids,
  });
  for (const [id, rule] of Object.entries(body.departments)) {
    if (!departments.has(id)) throw invalidField(`departments.${id}`, 'No such department in this domain');
    if (body.chatsDays !== null && rule.chatsDays > body.chatsDays) {
      throw invalidField(
        `departments.${id}.chatsDays`,
        `A department may only be stricter than the domain: at most ${body.chatsDays} days`,
      );
    }
  }
}

/** PUT /api/v1/settings/retention: audited when it changes. */
export async function putSettings(
  s: RetentionState,
  caller: UserCaller,
  body: RetentionSettings,
  meta: AuditMeta,
  domain?: string,
): Promise<RetentionView> {
  const domainId = await adminDomain(s, caller, domain);
  await checkDepartments(s, domainId, body);
  const before = await s.store.read(domainId);
  const diff = changedFields(before, body);
  if (Object.keys(diff.after).length > 0) {
    await auditedTransaction(s.ctx.db, caller, meta, retentionStore, async (store) => {
      await store.write(domainId, body);
      return {
        result: undefined,
        audit: {
          action: 'retention.settings.update',
          targetType: 'domain',
          targetId: domainId,
          domainId,
          ...diff,
        },
      };
    });
  }
  return view(s, domainId, await s.store.read(domainId));
}

/** GET /api/v1/me/retention: the rule for the caller's own chats, their department's when stricter. */
export async function myRetention(s: RetentionState, caller: UserCaller): Promise<MyRetention> {
  const rule = await s.store.read(caller.domain.id);
  const department = rule.departments[caller.user.departmentId]?.chatsDays ?? null;
  const chatsDays =
    department === null
      ? rule.chatsDays
      : rule.chatsDays === null
        ? department
        : Math.min(department, rule.chatsDays);
  return { chatsDays, filesDays: rule.filesDays, exemptPinned: rule.exemptPinned };
}

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);
const add = (into: JobCounts, counts: JobCounts) => {
  for (const [k, v] of Object.entries(counts)) into[k] = (into[k] ?? 0) + v;
};

/** What one domain's rule deletes now; the counts of what went. */
async function runDomain(
  s: RetentionState,
  domainId: string,
  rule: RetentionSettings,
  now: Date,
  pause: Pause,
): Promise<JobCounts> {
  const { chats, apiKeys, accounts } = s.ctx.services;
  const counts: JobCounts = { chats: 0, visitorChats: 0, messages: 0, files: 0, apiLogs: 0 };
  const departments = Object.fromEntries(
    Object.entries(rule.departments).map(([id, d]) => [id, daysBefore(now, d.chatsDays)]),
  );
  if (rule.chatsDays !== null || rule.visitorChatsDays !== null || Object.keys(departments).length > 0) {
    const expiry: ExpiryRule = {
      domainId,
      before: rule.chatsDays === null ? null : daysBefore(now, rule.chatsDays),
      departments,
      visitorsBefore: rule.visitorChatsDays === null ? null : daysBefore(now, rule.visitorChatsDays),
      exemptPinned: rule.exemptPinned,
    };
    add(counts, await chats.expireChats(expiry, pause));
  }
  if (rule.filesDays !== null) {
    const files = await chats.expireFiles(
      { domainId, before: daysBefore(now, rule.filesDays), exemptPinned: rule.exemptPinned },
      pause,
    );
    counts.files = (counts.files ?? 0) + files.files;
    if (files.failed > 0) counts.filesFailed = files.failed;
  }
  if (rule.apiLogsDays !== null) {
    const keep = await accounts.heldUsers(domainId);
    counts.apiLogs = await apiKeys.expireRequestLog(
      { domainId, before: daysBefore(now, rule.apiLogsDays), keep },
      pause,
    );
  }
  return counts;
}

/**
 * The daily run (`governance.retention`): every domain with a rule, one audit row each with its
 * counts; answers their sums. The usage ledger is never touched. A domain that fails does not stop
 * the others; the run then fails, naming them.
 */
export async function runRetention(
  s: RetentionState,
  opts: { now?: Date; pause?: Pause } = {},
): Promise<JobCounts> {
  const now = opts.now ?? new Date();
  const pause = opts.pause ?? (() => new Promise<void>((resolve) => setTimeout(resolve, PAUSE_MS)));
  const total: JobCounts = { domains: 0, chats: 0, visitorChats: 0, messages: 0, files: 0, apiLogs: 0 };
  const failed: string[] = [];
  for (const { domainId, settings } of await s.store.rules()) {
    let counts: JobCounts;
    try {
      counts = await runDomain(s, domainId, settings, now, pause);
    } catch (err) {
      s.ctx.log.error({ err, domainId }, 'retention: a domain’s run failed');
      failed.push(domainId);
      continue;
    }
    await recordAudit(
      s.ctx.db,
      SYSTEM_ACTOR,
      { ip: null, userAgent: null },
      {
        action: 'retention.run',
        targetType: 'domain',
        targetId: domainId,
        domainId,
        before: null,
        after: counts,
      },
    );
    add(total, counts);
    total.domains = (total.domains ?? 0) + 1;
  }
  if (failed.length > 0) throw new Error(`retention failed for ${failed.join(', ')}`);
  return total;
}
