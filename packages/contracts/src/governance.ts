import { z } from 'zod';
import { TimeZoneSchema } from './chats.ts';
import { RetentionLimits } from './values.ts';

// Governance (docs/ARCHITECTURE.md#governance): retention, the scheduler's jobs, legal hold, export.

const IsoDate = z.iso.datetime({ offset: true });

const Days = z.number().int().min(1).max(RetentionLimits.maxDays);

/**
 * GET·PUT /api/v1/settings/retention?domain= (Admin). Null keeps forever. A department's rule may
 * only be stricter than the domain's `chatsDays`.
 */
export const RetentionSettingsSchema = z.strictObject({
  /** Chats deleted this many days after their last message. */
  chatsDays: Days.nullable(),
  /** Files attached to chats deleted this many days after they were uploaded (the message stays). */
  filesDays: Days.nullable(),
  /** An embed's visitors' chats. */
  visitorChatsDays: Days.nullable(),
  /** API keys' request log. */
  apiLogsDays: Days.nullable(),
  /** Pinned chats are kept whatever their age. */
  exemptPinned: z.boolean(),
  /** By department id: a stricter `chatsDays` for its people. */
  departments: z.record(z.string().min(1), z.strictObject({ chatsDays: Days })),
});
export type RetentionSettings = z.infer<typeof RetentionSettingsSchema>;

export const DefaultRetention: RetentionSettings = {
  chatsDays: null,
  filesDays: null,
  visitorChatsDays: null,
  apiLogsDays: null,
  exemptPinned: false,
  departments: {},
};

/** A background job's outcome; `counts` says what it did (`chats`, `messages`, `files`, …). */
export const JobRunSchema = z.object({
  id: z.string(),
  job: z.string(),
  trigger: z.enum(['schedule', 'manual']),
  /** Who ran it now (`manual`); null for the schedule. */
  by: z.string().nullable(),
  status: z.enum(['running', 'ok', 'failed']),
  startedAt: IsoDate,
  finishedAt: IsoDate.nullable(),
  counts: z.record(z.string(), z.number().int().min(0)),
  /** Why it failed, for an operator (English). */
  error: z.string().nullable(),
});
export type JobRun = z.infer<typeof JobRunSchema>;

/** GET /api/v1/jobs (SuperAdmin): every job of the cluster, with its last run. */
export const JobSchema = z.object({
  name: z.string(),
  everyMs: z.number().int().positive(),
  lastRun: JobRunSchema.nullable(),
  /** When the schedule next runs it (from its lease); null before its first run. */
  nextRunAt: IsoDate.nullable(),
});
export type Job = z.infer<typeof JobSchema>;

/** GET /api/v1/settings/retention answers the rule and its job's runs. */
export const RetentionViewSchema = z.object({
  settings: RetentionSettingsSchema,
  lastRun: JobRunSchema.nullable(),
  nextRunAt: IsoDate.nullable(),
});
export type RetentionView = z.infer<typeof RetentionViewSchema>;

/** GET /api/v1/me/retention: the rule that applies to the caller's own chats, for the notice. */
export const MyRetentionSchema = z.object({
  chatsDays: z.number().int().positive().nullable(),
  filesDays: z.number().int().positive().nullable(),
  exemptPinned: z.boolean(),
});
export type MyRetention = z.infer<typeof MyRetentionSchema>;

/** PUT /api/v1/user/{id}/legal_hold (Admin): while held, nothing of the person is deleted. */
export const LegalHoldInputSchema = z.strictObject({ hold: z.boolean() });
export type LegalHoldInput = z.infer<typeof LegalHoldInputSchema>;
export const LegalHoldSchema = z.object({ userId: z.string(), hold: z.boolean() });
export type LegalHold = z.infer<typeof LegalHoldSchema>;

export const ExportLimits = {
  /** How long an export's download link works. */
  expiresHours: 24,
} as const;

/** POST /api/v1/export (Admin): one person, or every person of a department. */
export const ExportRequestSchema = z.union([
  z.strictObject({ userId: z.string().min(1) }),
  z.strictObject({ departmentId: z.string().min(1) }),
]);
export type ExportRequest = z.infer<typeof ExportRequestSchema>;

/** GET an export's ZIP: the Markdown's language and time zone (the reader's screen; UTC without one). */
export const ExportDownloadQuerySchema = z.object({
  locale: z.string().max(35).optional(),
  timeZone: TimeZoneSchema.optional(),
});
export type ExportDownloadQuery = z.infer<typeof ExportDownloadQuerySchema>;

/** What POST /api/v1/me/export and POST /api/v1/export answer (201). */
export const ExportSchema = z.object({
  exportId: z.string(),
  scope: z.enum(['me', 'user', 'department']),
  /** The person's or the department's id. */
  subjectId: z.string(),
  createdAt: IsoDate,
  expiresAt: IsoDate,
  /** GET it for the ZIP, with the caller's credentials. */
  downloadUrl: z.string(),
});
export type Export = z.infer<typeof ExportSchema>;
