import type { BudgetPeriod, UsageSource } from '@assistente/contracts';
import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains } from './accounts.ts';

// The usage module's tables (docs/ARCHITECTURE.md#usage-prices-and-budgets). The ledger has no
// foreign keys on purpose: deleting a chat, a user, a key or a santito must leave what was spent.

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const count = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/** One settled model call. Rows are only ever added (an erased user's id stays as a pseudonym). */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: text('id').primaryKey(),
    at: at('at').notNull().defaultNow(),
    domainId: text('domain_id').notNull(),
    departmentId: text('department_id'),
    userId: text('user_id'),
    apiKeyId: text('api_key_id'),
    virtualAccountId: text('virtual_account_id'),
    santitoId: text('santito_id'),
    source: text('source').$type<UsageSource>().notNull(),
    /** `provider:model`. */
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    cachedInputTokens: integer('cached_input_tokens').notNull().default(0),
    reasoningTokens: integer('reasoning_tokens').notNull().default(0),
    /** Images the call made (`generate_image`), priced per image. */
    images: integer('images').notNull().default(0),
    /** Null when the model had no price at the time: unknown, never 0. */
    costMicros: bigint('cost_micros', { mode: 'number' }),
    priceId: text('price_id'),
  },
  (t) => [
    index('usage_events_domain_at_idx').on(t.domainId, t.at),
    index('usage_events_user_at_idx').on(t.userId, t.at),
  ],
);

/**
 * The ledger summed per day (in the domain's time zone) and per group, written in the transaction
 * that adds the event, so a report over a year reads thousands of rows, not millions. Absent
 * groups are '' (a primary key cannot hold null).
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    domainId: text('domain_id').notNull(),
    departmentId: text('department_id').notNull().default(''),
    userId: text('user_id').notNull().default(''),
    santitoId: text('santito_id').notNull().default(''),
    source: text('source').$type<UsageSource>().notNull(),
    model: text('model').notNull(),
    calls: count('calls'),
    inputTokens: count('input_tokens'),
    outputTokens: count('output_tokens'),
    costMicros: count('cost_micros'),
    unpricedCalls: count('unpriced_calls'),
  },
  (t) => [
    primaryKey({
      columns: [t.domainId, t.day, t.departmentId, t.userId, t.santitoId, t.source, t.model],
    }),
    index('usage_daily_user_day_idx').on(t.userId, t.day),
  ],
);

/** Prices per million tokens in micros, effective-dated: a change adds a row, none is rewritten. */
export const modelPrices = pgTable(
  'model_prices',
  {
    id: text('id').primaryKey(),
    model: text('model').notNull(),
    inputPerMillionMicros: bigint('input_per_million_micros', { mode: 'number' }).notNull(),
    outputPerMillionMicros: bigint('output_per_million_micros', { mode: 'number' }).notNull(),
    cachedInputPerMillionMicros: bigint('cached_input_per_million_micros', { mode: 'number' }),
    /** An image model's price per image; null: its images are not priced. */
    perImageMicros: bigint('per_image_micros', { mode: 'number' }),
    currency: text('currency').$type<'USD'>().notNull().default('USD'),
    effectiveFrom: at('effective_from').notNull().defaultNow(),
    setBy: text('set_by').notNull(),
  },
  (t) => [index('model_prices_model_from_idx').on(t.model, t.effectiveFrom)],
);

/** A spending limit of a domain, one of its departments or one person, per day, week or month. */
export const budgets = pgTable(
  'budgets',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    scopeKind: text('scope_kind').$type<'domain' | 'department' | 'user'>().notNull(),
    /** '' for the domain, else the department's or the user's id. */
    scopeId: text('scope_id').notNull().default(''),
    period: text('period').$type<BudgetPeriod>().notNull(),
    limitCostMicros: bigint('limit_cost_micros', { mode: 'number' }),
    limitTokens: bigint('limit_tokens', { mode: 'number' }),
    warnAtPercent: integer('warn_at_percent').notNull().default(80),
    ...timestamps,
  },
  (t) => [uniqueIndex('budgets_scope_period_idx').on(t.domainId, t.scopeKind, t.scopeId, t.period)],
);

/**
 * What a budget has used and holds reserved in one period. Admission is one conditional UPDATE of
 * this row (used + reserved + the call's worst case ≤ limit), so concurrent sends on any replica
 * serialise on it and at most the budget's worth get through.
 */
export const budgetPeriods = pgTable(
  'budget_periods',
  {
    budgetId: text('budget_id')
      .notNull()
      .references(() => budgets.id, { onDelete: 'cascade' }),
    periodStart: at('period_start').notNull(),
    usedCostMicros: count('used_cost_micros'),
    usedTokens: count('used_tokens'),
    reservedCostMicros: count('reserved_cost_micros'),
    reservedTokens: count('reserved_tokens'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.budgetId, t.periodStart] })],
);

/** One call's holds on the budgets that cover it, until it settles; released by a sweep if its process died. */
export const budgetReservations = pgTable(
  'budget_reservations',
  {
    id: text('id').primaryKey(),
    holds: jsonb('holds')
      .$type<{ budgetId: string; periodStart: string; costMicros: number; tokens: number }[]>()
      .notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('budget_reservations_expires_idx').on(t.expiresAt)],
);
