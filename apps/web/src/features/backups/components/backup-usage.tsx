import { Text } from '@mantine/core';
import { UsageBar } from '../../../components/usage-bar';
import { formatBytes } from '../../../lib/format-bytes';
import { usagePercent } from '../../../lib/usage-percent';
import { useTranslation } from '../../../lib/use-translation';

/** What the service's snapshots take in the backup store, against the plan's limit (0: none). */
export function BackupUsage({ usage, limit }: { usage: number; limit: number }) {
  const { t, i18n } = useTranslation();
  const used = formatBytes(usage, i18n.language);
  const percent = usagePercent(usage, limit);
  if (percent === null) {
    return (
      <Text size="sm" c="dimmed" data-testid="backups-usage">
        {t('backups.usage_unlimited', { used })}
      </Text>
    );
  }
  const text = t('backups.usage', { used, limit: formatBytes(limit, i18n.language) });
  return <UsageBar text={text} percent={percent} testId="backups-usage" />;
}
