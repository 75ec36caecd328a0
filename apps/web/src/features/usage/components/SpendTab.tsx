import {
  Alert,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconChartBar, IconDownload } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { useIsMobile } from '../../../ui/hooks/useIsMobile.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { downloadFile } from '../../auth/index.ts';
import { exportPath, type SummaryParams } from '../api.ts';
import { useUsageSummary } from '../hooks/useUsage.ts';
import { chartDays, type DayRange, formatDay, presetRange, rangeProblem } from '../lib/spend.ts';
import { type RangeChoice, SpendRange } from './SpendRange.tsx';
import { SPEND_GROUPS, type SpendGroup, SpendTable } from './SpendTable.tsx';
import type { ChartMetric } from './UsageChart.tsx';
import { UsageTotals } from './UsageTotals.tsx';

// recharts is large: the chart is its own chunk, fetched when the tab first shows a chart.
const UsageChart = lazy(() => import('./UsageChart.tsx'));

const CHART_HEIGHT = 240;

/** The Spend tab: a range of days, its totals, spend by day, and a breakdown with its CSV. */
export function SpendTab({ domain }: { domain: string }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [choice, setChoice] = useState<RangeChoice>(() => ({
    preset: 'this_month',
    range: presetRange('this_month'),
  }));
  const problem = rangeProblem(choice.range);
  return (
    <Stack gap="lg" pt="lg" data-testid="usage-spend">
      <SpendRange value={choice} onChange={setChoice} mobile={mobile} />
      {problem ? (
        <Alert
          color="orange"
          variant="light"
          radius="lg"
          icon={<IconAlertTriangle size={20} />}
          data-testid="usage-range-problem"
        >
          {t(`usage.spend.range_problem.${problem}`)}
        </Alert>
      ) : (
        <SpendReport range={choice.range} domain={domain} mobile={mobile} />
      )}
    </Stack>
  );
}

function SpendReport({ range, domain, mobile }: { range: DayRange; domain: string; mobile: boolean }) {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const locale = i18n.language;
  // Until the reader picks: cost, unless nothing in the range had a price (an empty chart says nothing).
  const [chosenMetric, setMetric] = useState<ChartMetric | null>(null);
  const [by, setBy] = useState<SpendGroup>('model');
  const [downloading, setDownloading] = useState(false);
  const daily = useUsageSummary({ ...range, groupBy: 'day', domain });
  const breakdownParams: SummaryParams = { ...range, groupBy: by, domain };
  const breakdown = useUsageSummary(breakdownParams);
  const days = useMemo(() => chartDays(daily.data?.rows ?? [], range), [daily.data, range]);

  if (daily.isPending)
    return (
      <Stack gap="lg" aria-busy="true" aria-label={t('app.loading')} data-testid="usage-loading">
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={86} radius="lg" />
          ))}
        </SimpleGrid>
        <Skeleton height={CHART_HEIGHT + 60} radius="lg" />
      </Stack>
    );
  if (daily.isError) return <LoadError title={t('usage.spend.load_failed')} query={daily} />;
  const total = daily.data.total;
  const metric = chosenMetric ?? (total.costMicros > 0 ? 'cost' : 'tokens');
  if (total.calls === 0)
    return (
      <EmptyPanel
        icon={<IconChartBar size={28} stroke={1.6} />}
        title={t('usage.spend.empty_title')}
        description={t('usage.spend.empty_description')}
      />
    );

  const download = () => {
    setDownloading(true);
    downloadFile(exportPath(breakdownParams), `usage-${by}-${range.from}-${range.to}.csv`, 'accounts')
      .catch(() => void popup.show({ status: 'error', title: t('usage.spend.download_failed') }))
      .finally(() => setDownloading(false));
  };

  return (
    <Stack gap="lg" style={{ opacity: daily.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
      <UsageTotals total={total} locale={locale} />
      <Paper withBorder radius="lg" p={mobile ? 'sm' : 'md'}>
        <Group justify="space-between" mb="md" gap="sm">
          <Title order={3} size="h5">
            {t('usage.spend.by_day')}
          </Title>
          <SegmentedControl
            size="xs"
            value={metric}
            onChange={(value) => setMetric(value as ChartMetric)}
            data={[
              { value: 'cost', label: t('usage.spend.cost') },
              { value: 'tokens', label: t('usage.spend.tokens') },
            ]}
            aria-label={t('usage.spend.chart_metric')}
            data-testid="usage-chart-metric"
          />
        </Group>
        {/* The bars' figures are in the totals and the CSV; the picture is named for screen readers. */}
        <div
          role="img"
          aria-label={t('usage.spend.chart_label', {
            from: formatDay(range.from, locale),
            to: formatDay(range.to, locale),
          })}
        >
          <Suspense
            fallback={<Skeleton height={CHART_HEIGHT} radius="md" data-testid="usage-chart-loading" />}
          >
            <UsageChart
              days={days}
              metric={metric}
              locale={locale}
              label={metric === 'cost' ? t('usage.spend.cost') : t('usage.spend.tokens')}
            />
          </Suspense>
        </div>
      </Paper>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" gap="sm">
          <Title order={3} size="h5">
            {t('usage.spend.breakdown')}
          </Title>
          <Group gap="sm" style={{ flex: mobile ? '1 1 100%' : undefined }} wrap="nowrap">
            {mobile ? (
              <Select
                aria-label={t('usage.spend.group_by')}
                data={SPEND_GROUPS.map((group) => ({
                  value: group,
                  label: t(`usage.spend.groups.${group}`),
                }))}
                value={by}
                allowDeselect={false}
                onChange={(value) => value && setBy(value as SpendGroup)}
                style={{ flex: 1 }}
                data-testid="usage-group-by"
              />
            ) : (
              <SegmentedControl
                value={by}
                onChange={(value) => setBy(value as SpendGroup)}
                data={SPEND_GROUPS.map((group) => ({
                  value: group,
                  label: t(`usage.spend.groups.${group}`),
                }))}
                aria-label={t('usage.spend.group_by')}
                data-testid="usage-group-by"
              />
            )}
            <Button
              variant="light"
              leftSection={<IconDownload size={16} />}
              onClick={download}
              loading={downloading}
              data-testid="usage-download"
            >
              {t('usage.spend.download_csv')}
            </Button>
          </Group>
        </Group>
        {/* The previous grouping's rows would read as this one's: a skeleton until the new ones come. */}
        {breakdown.isPending || breakdown.isPlaceholderData ? (
          <ListSkeleton label={t('app.loading')} rows={3} />
        ) : breakdown.isError ? (
          <LoadError title={t('usage.spend.load_failed')} query={breakdown} />
        ) : (
          <SpendTable rows={breakdown.data.rows} by={by} mobile={mobile} />
        )}
      </Stack>
    </Stack>
  );
}
