import { type BudgetLimit, type BudgetStatus, type BudgetUse, fromMicros } from '@assistente/contracts';
import { formatCount, formatMoney } from './spend.ts';

/** "US$ 50,00 · 1.000.000 tokens": the limits a budget has, in the reader's language. */
export function describeLimit(limit: BudgetLimit, locale: string, tokensWord: string): string {
  const parts: string[] = [];
  if (limit.costMicros !== undefined) parts.push(formatMoney(limit.costMicros, locale));
  if (limit.tokens !== undefined) parts.push(`${formatCount(limit.tokens, locale)} ${tokensWord}`);
  return parts.join(' · ');
}

/** What has been used, in the same units as the limits. */
export function describeUse(limit: BudgetLimit, used: BudgetUse, locale: string, tokensWord: string): string {
  return describeLimit(
    {
      ...(limit.costMicros !== undefined ? { costMicros: used.costMicros } : {}),
      ...(limit.tokens !== undefined ? { tokens: used.tokens } : {}),
    },
    locale,
    tokensWord,
  );
}

/** A progress bar's colour: the warning from the budget's own threshold, red once it is spent. */
export function budgetColor(percent: number, warnAtPercent: number): string {
  if (percent >= 100) return 'red';
  return percent >= warnAtPercent ? 'orange' : 'teal';
}

/** The dollars of a limit in micros, for the editor's number field. */
export const limitDollars = (limit: BudgetLimit): number | '' =>
  limit.costMicros === undefined ? '' : fromMicros(limit.costMicros);

/** The budgets whose banner shows: at or beyond their warning, and not dismissed for this period. */
export function bannerBudgets(
  budgets: readonly BudgetStatus[],
  dismissed: ReadonlySet<string>,
): BudgetStatus[] {
  return budgets
    .filter((b) => b.percent >= b.warnAtPercent && !dismissed.has(dismissKey(b)))
    .sort((a, b) => b.percent - a.percent);
}

/**
 * A dismissal lasts for one period of one budget, and for one state: the next period warns again,
 * and a warning dismissed does not hide that the budget is then spent.
 */
export const dismissKey = (b: Pick<BudgetStatus, 'budgetId' | 'used' | 'percent'>): string =>
  `${b.budgetId}@${b.used.periodStart}:${b.percent >= 100 ? 'spent' : 'warn'}`;
