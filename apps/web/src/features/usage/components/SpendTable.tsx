import type { UsageRow } from '@assistente/contracts';
import { Card, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { type TFunction, useTranslation } from '../../../lib/i18n/index.ts';
import { byCost, formatCount, formatMoney } from '../lib/spend.ts';

/** The groupings of the table (the chart has the days). */
export const SPEND_GROUPS = ['department', 'user', 'model', 'santito', 'source'] as const;
export type SpendGroup = (typeof SPEND_GROUPS)[number];

/** What a row is called: a source in the reader's language; a group without an id says so. */
export function rowLabel(t: TFunction, by: SpendGroup, row: UsageRow): string {
  if (!row.key) return t(`usage.spend.none.${by}`);
  if (by === 'source') return t(`usage.sources.${row.key}`);
  // An erased person's key carries only a pseudonym; the server's label is in English.
  if (by === 'user' && row.key.startsWith('deleted:'))
    return t('usage.spend.deleted_user', { alias: row.key.slice('deleted:'.length) });
  return row.label;
}

/** A row's cost; calls without a price are never shown as free. */
function Cost({ row, locale }: { row: UsageRow; locale: string }) {
  const { t } = useTranslation();
  if (row.calls > 0 && row.unpricedCalls === row.calls)
    return (
      <Text span size="sm" c="dimmed">
        {t('usage.spend.no_price')}
      </Text>
    );
  return (
    <Stack gap={0} align="flex-end">
      <Text span size="sm" fw={600}>
        {formatMoney(row.costMicros, locale)}
      </Text>
      {row.unpricedCalls > 0 ? (
        <Text span size="xs" c="orange.8">
          {t('usage.spend.unpriced_short', { count: row.unpricedCalls })}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The range's usage by one grouping, the most expensive first: a table, or cards on a phone. */
export function SpendTable({
  rows,
  by,
  mobile,
}: {
  rows: readonly UsageRow[];
  by: SpendGroup;
  mobile: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const sorted = byCost(rows);
  const count = (n: number) => formatCount(n, locale);

  if (mobile)
    return (
      <Stack gap="sm" data-testid="usage-cards">
        {sorted.map((row) => (
          <Card key={row.key} withBorder radius="lg" padding="md" data-testid="usage-row">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
              <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                {rowLabel(t, by, row)}
              </Text>
              <Cost row={row} locale={locale} />
            </Group>
            <SimpleGrid cols={3} spacing="xs" mt="xs">
              <Figure label={t('usage.spend.calls')} value={count(row.calls)} />
              <Figure label={t('usage.spend.input')} value={count(row.inputTokens)} />
              <Figure label={t('usage.spend.output')} value={count(row.outputTokens)} />
            </SimpleGrid>
          </Card>
        ))}
      </Stack>
    );

  return (
    <Table.ScrollContainer type="native" minWidth={640}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="usage-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t(`usage.spend.groups.${by}`)}</Table.Th>
            <Table.Th ta="right">{t('usage.spend.calls')}</Table.Th>
            <Table.Th ta="right">{t('usage.spend.input')}</Table.Th>
            <Table.Th ta="right">{t('usage.spend.output')}</Table.Th>
            <Table.Th ta="right">{t('usage.spend.cost')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((row) => (
            <Table.Tr key={row.key} data-testid="usage-row">
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{rowLabel(t, by, row)}</Table.Td>
              <Table.Td ta="right">{count(row.calls)}</Table.Td>
              <Table.Td ta="right">{count(row.inputTokens)}</Table.Td>
              <Table.Td ta="right">{count(row.outputTokens)}</Table.Td>
              <Table.Td ta="right">
                <Cost row={row} locale={locale} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Stack>
  );
}
