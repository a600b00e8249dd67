import { Card, SimpleGrid, Text } from '@mantine/core';
import type { StatsTotals as Totals } from '@panel247/contract/stats';
import { formatBytes } from '../../../lib/format-bytes';
import { useTranslation } from '../../../lib/use-translation';
import { formatCount } from '../lib/stats-format';

/** The month's figures: visits, pages, bandwidth, and every request with how many were not found. */
export function StatsTotals({ totals }: { totals: Totals }) {
  const { t, i18n } = useTranslation();
  const figures = [
    { key: 'visitors', label: t('stats.visitors'), value: formatCount(totals.visitors, i18n.language) },
    { key: 'pages', label: t('stats.pages'), value: formatCount(totals.pages, i18n.language) },
    { key: 'bytes', label: t('stats.bandwidth'), value: formatBytes(totals.bytes, i18n.language) },
    {
      key: 'hits',
      label: t('stats.requests'),
      value: formatCount(totals.hits, i18n.language),
      note: t('stats.not_found_count', { count: totals.notFound }),
    },
  ];
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" data-testid="stats-totals">
      {figures.map((figure) => (
        <Card key={figure.key} withBorder padding="md" data-testid={`stats-total-${figure.key}`}>
          <Text size="sm" c="dimmed">
            {figure.label}
          </Text>
          <Text size="xl" fw={700}>
            {figure.value}
          </Text>
          {figure.note ? (
            <Text size="xs" c="dimmed">
              {figure.note}
            </Text>
          ) : null}
        </Card>
      ))}
    </SimpleGrid>
  );
}
