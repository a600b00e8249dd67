import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation';

/** "from–to of total" and the page buttons; shown only when the rows do not fit one page. */
export function ListPagination({
  page,
  pageSize,
  total,
  onChange,
  testId,
}: {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  if (total <= pageSize) return null;
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed" data-testid={`${testId}-text`}>
        {t('lists.pagination', {
          from: (page - 1) * pageSize + 1,
          to: Math.min(page * pageSize, total),
          total,
        })}
      </Text>
      <Pagination
        total={Math.ceil(total / pageSize)}
        value={page}
        onChange={onChange}
        size="sm"
        getControlProps={(control) => ({ 'aria-label': t(`lists.page_${control}`) })}
        getItemProps={(item) => ({ 'aria-label': t('lists.page_n', { page: item }) })}
        data-testid={testId}
      />
    </Group>
  );
}
