import type { BudgetLimit, BudgetUse } from '@assistente/contracts';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { budgetColor, describeLimit, describeUse } from '../lib/budgets.ts';

/** What a budget's period has used of its limit: a bar, the figures, the percent and the reset. */
export function BudgetMeter({
  limit,
  used,
  percent,
  warnAtPercent,
  showWarning = false,
}: {
  limit: BudgetLimit;
  used: BudgetUse;
  percent: number;
  warnAtPercent: number;
  /** The editor's cards also say where the warning is. */
  showWarning?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const tokensWord = t('usage.budgets.tokens_word');
  const color = budgetColor(percent, warnAtPercent);
  return (
    <Stack gap={6}>
      <Progress
        value={Math.min(percent, 100)}
        color={color}
        size="lg"
        radius="xl"
        aria-label={t('usage.budgets.used_percent', { percent: Math.round(percent) })}
      />
      <Group justify="space-between" gap="xs">
        <Text size="sm" data-testid="budget-use">
          {t('usage.budgets.used_of', {
            used: describeUse(limit, used, locale, tokensWord),
            limit: describeLimit(limit, locale, tokensWord),
          })}
        </Text>
        <Text size="sm" fw={600} c={color}>
          {Math.round(percent)}%
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t('usage.budgets.resets_on', { when: formatDateTime(used.resetsAt, locale) })}
        {showWarning ? ` · ${t('usage.budgets.warns_at', { percent: warnAtPercent })}` : null}
      </Text>
    </Stack>
  );
}
