import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation';
import { formatCount } from '../lib/stats-format';

/** One of the month's top lists (pages, referring sites, status codes, countries) as a small table. */
export function StatsTopList({
  title,
  column,
  rows,
  empty,
  testId,
}: {
  title: string;
  /** The first column's heading (the second is the requests). */
  column: string;
  rows: { label: string; hits: number }[];
  empty: string;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        ) : (
          <Table verticalSpacing={4} layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{column}</Table.Th>
                <Table.Th w={110} ta="right">
                  {t('stats.requests')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.label} data-testid={`${testId}-row`}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="sm" ff={column === t('stats.page') ? 'monospace' : undefined}>
                      {row.label}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm">{formatCount(row.hits, i18n.language)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
