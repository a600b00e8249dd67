import { Stack, Text } from '@mantine/core';
import type { CronListData } from '@panel247/contract/cron';
import { useTranslation } from '../../../lib/use-translation';

/** What the schedules are read against: the time zone, the plan's shortest interval and its number of tasks. */
export function CronPlanHint({ data }: { data: CronListData }) {
  const { t } = useTranslation();
  const limit = data.limits.maxTasks;
  const used = data.tasks.length;
  return (
    <Stack gap={0} data-testid="cron-hint">
      <Text size="sm" c="dimmed">
        {limit === null ? t('cron.usage_unlimited', { used }) : t('cron.usage', { used, limit })}
      </Text>
      <Text size="sm" c="dimmed">
        {t('cron.timezone', { timezone: data.timezone })}{' '}
        {t('cron.min_interval', { count: data.limits.minIntervalMinutes })}
      </Text>
    </Stack>
  );
}
