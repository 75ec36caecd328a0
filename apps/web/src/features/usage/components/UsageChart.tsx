// Loaded lazily by the Spend tab: recharts and the charts' styles are a chunk of their own, fetched
// only when someone opens the chart, never part of the app's main bundle.
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { type ChartDay, formatCompact, formatCount, formatDay, formatMoney } from '../lib/spend.ts';

export type ChartMetric = 'cost' | 'tokens';

export default function UsageChart({
  days,
  metric,
  label,
  locale,
}: {
  days: readonly ChartDay[];
  metric: ChartMetric;
  /** The series' name in the tooltip. */
  label: string;
  locale: string;
}) {
  const format =
    metric === 'cost'
      ? (value: number) => formatMoney(Math.round(value * 1_000_000), locale)
      : (value: number) => formatCount(value, locale);
  const axis =
    metric === 'cost'
      ? (value: number) =>
          new Intl.NumberFormat(locale, {
            style: 'currency',
            currency: 'USD',
            notation: 'compact',
            maximumFractionDigits: value < 1 ? 3 : 1,
          }).format(value)
      : (value: number) => formatCompact(value, locale);
  return (
    <BarChart
      h={240}
      data={days.map((day) => ({ ...day }))}
      dataKey="day"
      series={[{ name: metric, label, color: metric === 'cost' ? 'primary.6' : 'teal.6' }]}
      valueFormatter={format}
      tickLine="y"
      gridAxis="x"
      maxBarWidth={28}
      xAxisProps={{ tickFormatter: (day: string) => formatDay(day, locale), minTickGap: 12 }}
      yAxisProps={{ tickFormatter: axis, width: 64 }}
      tooltipProps={{
        labelFormatter: (day) => (typeof day === 'string' ? formatDay(day, locale) : String(day)),
      }}
      data-testid="usage-chart"
    />
  );
}
