import type { JobRun } from '@assistente/contracts';
import type { TFunction } from '../../../lib/i18n/index.ts';

/** The retention job's name on the scheduler (docs/ARCHITECTURE.md#governance). */
export const RETENTION_JOB = 'governance.retention';

// Job names hold dots and dashes, which a translation key cannot: each known job's key.
const NAME_KEYS: Record<string, string> = {
  [RETENTION_JOB]: 'retention',
  'chats.purge-deleted': 'chats_purge_deleted',
  'chats.purge-drafts': 'chats_purge_drafts',
  'identity.purge': 'identity_purge',
  'agents.stale-answers': 'agents_stale_answers',
  'agents.expired-approvals': 'agents_expired_approvals',
  'usage.reservations': 'usage_reservations',
  'knowledge.sync': 'knowledge_sync',
};

/** A job in words where the interface knows it; otherwise its scheduler name. */
export function jobTitle(t: TFunction, name: string): string {
  const key = NAME_KEYS[name];
  return key ? t(`jobs.names.${key}`) : name;
}

// What a run counted, by the keys the jobs write, in the order they read best; another key is
// shown as the job wrote it, after these.
const COUNT_KEYS = [
  'chats',
  'visitorChats',
  'messages',
  'files',
  'filesFailed',
  'apiLogs',
  'memories',
  'exports',
  'domains',
];

const rank = (key: string) => {
  const i = COUNT_KEYS.indexOf(key);
  return i < 0 ? COUNT_KEYS.length : i;
};

/**
 * A run's counts in words, what it did not touch left out: "12 conversas, 340 mensagens, 5
 * arquivos, em 2 organizações". Empty when it did nothing (where it looked is no news then).
 */
export function countsText(t: TFunction, counts: JobRun['counts']): string {
  const done = Object.entries(counts).filter(([, count]) => count > 0);
  if (done.every(([key]) => key === 'domains')) return '';
  return done
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, count]) =>
      COUNT_KEYS.includes(key) ? t(`jobs.counts.${key}`, { count }) : `${key}: ${count}`,
    )
    .join(', ');
}

const UNITS = [
  ['days', 86_400_000],
  ['hours', 3_600_000],
  ['minutes', 60_000],
  ['seconds', 1_000],
] as const;

/** A job's period in words ("a cada 24 horas" reads as "a cada dia"): the largest whole unit. */
export function periodText(t: TFunction, everyMs: number): string {
  for (const [unit, ms] of UNITS)
    if (everyMs % ms === 0) return t(`jobs.every.${unit}`, { count: everyMs / ms });
  return t('jobs.every.seconds', { count: Math.round(everyMs / 1000) });
}
