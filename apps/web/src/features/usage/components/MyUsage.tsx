import type { BudgetStatus } from '@assistente/contracts';
import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { useMyUsage } from '../hooks/useUsage.ts';
import { formatCount, formatDay, formatMoney } from '../lib/spend.ts';
import { BudgetMeter } from './BudgetMeter.tsx';
import { UsageTotals } from './UsageTotals.tsx';

/** Settings → My usage: what the person used this month, by model, and what their budgets leave. */
export function MyUsage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const me = useMyUsage();
  if (me.isPending) return <ListSkeleton label={t('app.loading')} rows={3} />;
  if (me.isError) return <LoadError title={t('usage.me.load_failed')} query={me} />;
  const { total, byModel, budgets, from, to } = me.data;
  return (
    <Stack gap="lg" pt="lg" data-testid="my-usage">
      <Text c="dimmed" size="sm">
        {t('usage.me.period', { from: formatDay(from, locale), to: formatDay(to, locale) })}
      </Text>
      <UsageTotals total={total} locale={locale} />
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('usage.me.budgets')}
        </Title>
        {budgets.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('usage.me.no_budgets')}
          </Text>
        ) : (
          budgets.map((b) => <BudgetLeft key={b.budgetId} status={b} />)
        )}
      </Stack>
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('usage.me.by_model')}
        </Title>
        {byModel.length === 0 ? (
          <EmptyPanel icon={<IconChartBar size={28} stroke={1.6} />} title={t('usage.me.empty')} />
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('usage.me.model')}</Table.Th>
                  <Table.Th ta="right">{t('usage.me.calls')}</Table.Th>
                  <Table.Th ta="right">{t('usage.me.tokens')}</Table.Th>
                  <Table.Th ta="right">{t('usage.me.cost')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {byModel.map((row) => (
                  <Table.Tr key={row.key}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{row.label}</Table.Td>
                    <Table.Td ta="right">{formatCount(row.calls, locale)}</Table.Td>
                    <Table.Td ta="right">{formatCount(row.inputTokens + row.outputTokens, locale)}</Table.Td>
                    <Table.Td ta="right">
                      {row.unpricedCalls === row.calls
                        ? t('usage.me.no_price')
                        : formatMoney(row.costMicros, locale)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}

function BudgetLeft({ status }: { status: BudgetStatus }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p="md" data-testid="my-budget">
      <Stack gap={6}>
        <Group gap={6}>
          <Badge variant="light" size="sm">
            {t(`usage.budgets.scopes.${status.scope}`)}
          </Badge>
          <Badge variant="outline" size="sm" color="gray">
            {t(`usage.budgets.periods.${status.period}`)}
          </Badge>
        </Group>
        <BudgetMeter
          limit={status.limit}
          used={status.used}
          percent={status.percent}
          warnAtPercent={status.warnAtPercent}
        />
      </Stack>
    </Paper>
  );
}
