import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Card, Stack, Text, Title } from '@mantine/core';
import type { StatsSiteData, StatsSummary } from '@panel247/contract/stats';
import { useTranslation } from '../../../lib/use-translation';
import { dayLabel, formatCount, monthLabel, monthsSeries } from '../lib/stats-format';

/**
 * The month's days and the site's months as bar charts (Mantine's, on Recharts). Each chart says
 * in words what it shows for screen readers; its numbers are in the totals and the months' list.
 */
export function StatsDaysChart({ summary, month }: { summary: StatsSummary; month: string }) {
  const { t, i18n } = useTranslation();
  const data = summary.days.map((day) => ({ day: dayLabel(day.date), visitors: day.visitors, hits: day.hits }));
  const label = t('stats.days_chart_label', {
    month: monthLabel(month, i18n.language),
    visitors: formatCount(summary.totals.visitors, i18n.language),
    days: data.length,
  });
  return (
    <Card withBorder padding="md" data-testid="stats-days">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('stats.by_day')}
        </Title>
        <div role="img" aria-label={label}>
          <BarChart
            h={240}
            data={data}
            dataKey="day"
            series={[
              { name: 'visitors', label: t('stats.visitors'), color: 'blue.6' },
              { name: 'hits', label: t('stats.requests'), color: 'teal.5' },
            ]}
            withLegend
            tickLine="y"
            valueFormatter={(value) => formatCount(value, i18n.language)}
          />
        </div>
      </Stack>
    </Card>
  );
}

export function StatsMonthsChart({ data }: { data: StatsSiteData }) {
  const { t, i18n } = useTranslation();
  const series = monthsSeries(data, i18n.language);
  return (
    <Card withBorder padding="md" data-testid="stats-months">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('stats.by_month')}
        </Title>
        <div role="img" aria-label={t('stats.months_chart_label', { count: series.length })}>
          <BarChart
            h={220}
            data={series}
            dataKey="month"
            series={[
              { name: 'visitors', label: t('stats.visitors'), color: 'blue.6' },
              { name: 'pages', label: t('stats.pages'), color: 'grape.5' },
            ]}
            withLegend
            tickLine="y"
            valueFormatter={(value) => formatCount(value, i18n.language)}
          />
        </div>
        <Text size="xs" c="dimmed">
          {t('stats.months_hint')}
        </Text>
      </Stack>
    </Card>
  );
}
