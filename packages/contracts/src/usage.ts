import { z } from 'zod';
import { DomainHintSchema } from './accounts.ts';

// Usage, prices and budgets (docs/ARCHITECTURE.md#usage-prices-and-budgets). Money is integers of
// micro-units of the currency (1 USD = 1,000,000 micros) everywhere but in the price editor's
// decimal numbers, so sums never drift.

/** The zone of a domain's days until its Admin picks another (the schema's default too). */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** Where a model call came from: one ledger row per call settled. */
export const UsageSources = [
  'chat',
  'api',
  'embedded',
  'codeassist',
  'title',
  'tool',
  'embedding',
  'image',
] as const;
export const UsageSourceSchema = z.enum(UsageSources);
export type UsageSource = z.infer<typeof UsageSourceSchema>;

/** `provider:model`, as chats, santitos and `/v1` name a model. */
export const ModelRefSchema = z
  .string()
  .max(200)
  .regex(/^[a-z0-9][a-z0-9_-]*:\S.*$/i, 'model must look like provider:model');

/**
 * A decimal amount of money as the editor types it (2.5 means 2.50 USD), at most six decimals so it
 * is a whole number of micros; answered back the same way.
 */
export const MoneySchema = z
  .number()
  .min(0)
  .max(1_000_000)
  .refine((n) => decimals(n) <= 6, { message: 'at most six decimals' });

function decimals(n: number): number {
  const [, fraction = ''] = String(n).split('.');
  return String(n).includes('e') ? 7 : fraction.length;
}

// ---- Prices (SuperAdmin, instance-wide) ----

/** PUT /api/v1/usage/prices/{model}: a new price from now on; the history is never rewritten. */
export const PriceInputSchema = z.object({
  inputPerMillion: MoneySchema,
  outputPerMillion: MoneySchema,
  /** Cached input tokens, where the provider reports them; absent: priced as input. */
  cachedInputPerMillion: MoneySchema.optional(),
  /** An image model's price per image (`generate_image`); absent: its images are not priced. */
  perImage: MoneySchema.optional(),
  currency: z.literal('USD'),
});
export type PriceInput = z.infer<typeof PriceInputSchema>;

export const ModelPriceSchema = PriceInputSchema.extend({
  id: z.string(),
  model: z.string(),
  effectiveFrom: z.iso.datetime(),
  /** The e-mail of the SuperAdmin who set it. */
  setBy: z.string(),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** GET /api/v1/usage/prices: the price in force for each priced model. */
export const PriceListSchema = z.object({ items: z.array(ModelPriceSchema) });
export type PriceList = z.infer<typeof PriceListSchema>;

export const ModelParamsSchema = z.object({ model: ModelRefSchema });

// ---- Reports ----

export const UsageGroupBys = ['day', 'user', 'department', 'model', 'santito', 'source'] as const;
export const UsageGroupBySchema = z.enum(UsageGroupBys);
export type UsageGroupBy = z.infer<typeof UsageGroupBySchema>;

/** GET /api/v1/usage/summary and /export: days in the domain's time zone, both included. */
export const UsageSummaryQuerySchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  groupBy: UsageGroupBySchema.default('day'),
  domain: DomainHintSchema,
  format: z.literal('csv').optional(),
});
export type UsageSummaryQuery = z.infer<typeof UsageSummaryQuerySchema>;

export const UsageTotalsSchema = z.object({
  calls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** Priced calls only; `unpricedCalls` says how many calls had no price (never counted as 0). */
  costMicros: z.number().int(),
  unpricedCalls: z.number().int(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

export const UsageRowSchema = UsageTotalsSchema.extend({
  /** The group's id: a day (YYYY-MM-DD), a user or department id, a `provider:model`, a source. */
  key: z.string(),
  /** What a person reads: a name, "Deleted user …" for an erased one. */
  label: z.string(),
});
export type UsageRow = z.infer<typeof UsageRowSchema>;

export const UsageSummarySchema = z.object({ rows: z.array(UsageRowSchema), total: UsageTotalsSchema });
export type UsageSummary = z.infer<typeof UsageSummarySchema>;

// ---- Budgets (Admin of the domain; SuperAdmin any) ----

export const BudgetPeriods = ['day', 'week', 'month'] as const;
export const BudgetPeriodSchema = z.enum(BudgetPeriods);
export type BudgetPeriod = z.infer<typeof BudgetPeriodSchema>;

export const BudgetScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('domain') }),
  z.object({ kind: z.literal('department'), departmentId: z.string().min(1).max(100) }),
  z.object({ kind: z.literal('user'), userId: z.string().min(1).max(320) }),
]);
export type BudgetScope = z.infer<typeof BudgetScopeSchema>;

export const BudgetLimitSchema = z
  .object({
    costMicros: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    tokens: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .refine((l) => l.costMicros !== undefined || l.tokens !== undefined, {
    message: 'a budget limits money, tokens or both',
  });
export type BudgetLimit = z.infer<typeof BudgetLimitSchema>;

export const BudgetInputSchema = z.object({
  domain: DomainHintSchema,
  scope: BudgetScopeSchema,
  period: BudgetPeriodSchema,
  limit: BudgetLimitSchema,
  warnAtPercent: z.number().int().min(1).max(100).default(80),
});
export type BudgetInput = z.infer<typeof BudgetInputSchema>;

/** What a budget has used in its current period, and when that period ends. */
export const BudgetUseSchema = z.object({
  costMicros: z.number().int(),
  tokens: z.number().int(),
  periodStart: z.iso.datetime(),
  resetsAt: z.iso.datetime(),
});
export type BudgetUse = z.infer<typeof BudgetUseSchema>;

export const BudgetSchema = z.object({
  id: z.string(),
  domain: z.string(),
  scope: BudgetScopeSchema,
  /** The department's or the user's name, for lists. */
  scopeLabel: z.string(),
  period: BudgetPeriodSchema,
  limit: BudgetLimitSchema,
  warnAtPercent: z.number().int(),
  used: BudgetUseSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Budget = z.infer<typeof BudgetSchema>;

export const BudgetListQuerySchema = z.object({ domain: DomainHintSchema });
export const BudgetListSchema = z.object({ items: z.array(BudgetSchema) });
export type BudgetList = z.infer<typeof BudgetListSchema>;

/** The larger share used of a budget's two limits, in percent (0 to 100 and beyond). */
export function percentUsed(limit: BudgetLimit, used: Pick<BudgetUse, 'costMicros' | 'tokens'>): number {
  const shares = [
    limit.costMicros ? used.costMicros / limit.costMicros : 0,
    limit.tokens ? used.tokens / limit.tokens : 0,
  ];
  return Math.max(...shares) * 100;
}

/** A budget that covers the caller, as `GET /api/v1/usage/me` and the banner read it. */
export const BudgetStatusSchema = z.object({
  budgetId: z.string(),
  scope: z.enum(['domain', 'department', 'user']),
  period: BudgetPeriodSchema,
  limit: BudgetLimitSchema,
  used: BudgetUseSchema,
  /** The larger share used of the two limits, 0–100 and beyond. */
  percent: z.number(),
  warnAtPercent: z.number().int(),
});
export type BudgetStatus = z.infer<typeof BudgetStatusSchema>;

/** GET /api/v1/usage/me: the caller's own usage this month by model, and their budgets. */
export const UsageMeSchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  total: UsageTotalsSchema,
  byModel: z.array(UsageRowSchema),
  budgets: z.array(BudgetStatusSchema),
});
export type UsageMe = z.infer<typeof UsageMeSchema>;

/** `details` of a BUDGET_EXCEEDED refusal (REST, websocket): which budget, and when it resets. */
export const BudgetExceededDetailsSchema = z.object({
  budgetId: z.string(),
  scope: z.enum(['domain', 'department', 'user']),
  resetsAt: z.iso.datetime(),
});
export type BudgetExceededDetails = z.infer<typeof BudgetExceededDetailsSchema>;
