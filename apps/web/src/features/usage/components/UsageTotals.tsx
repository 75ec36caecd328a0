import type { UsageTotals as Totals } from '@assistente/contracts';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { formatCount, formatMoney } from '../lib/spend.ts';

/** Cost, tokens and calls of a range as cards; calls without a price are said, never counted free. */
export function UsageTotals({ total, locale }: { total: Totals; locale: string }) {
  const { t } = useTranslation();
  const count = (n: number) => formatCount(n, locale);
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing={{ base: 'sm', sm: 'md' }} data-testid="usage-totals">
      <Stat
        label={t('usage.spend.cost')}
        value={formatMoney(total.costMicros, locale)}
        testId="usage-total-cost"
      >
        {total.unpricedCalls > 0 ? (
          <Text size="xs" c="orange.8" data-testid="usage-unpriced">
            {t('usage.spend.unpriced', { count: total.unpricedCalls })}
          </Text>
        ) : null}
      </Stat>
      <Stat
        label={t('usage.spend.input_tokens')}
        value={count(total.inputTokens)}
        testId="usage-total-input"
      />
      <Stat
        label={t('usage.spend.output_tokens')}
        value={count(total.outputTokens)}
        testId="usage-total-output"
      />
      <Stat label={t('usage.spend.calls')} value={count(total.calls)} testId="usage-total-calls" />
    </SimpleGrid>
  );
}

function Stat({
  label,
  value,
  testId,
  children,
}: {
  label: string;
  value: string;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" p="md" data-testid={testId}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fw={700} fz={{ base: 'lg', sm: 'xl' }} mt={4} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      {children}
    </Paper>
  );
}
