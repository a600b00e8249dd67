import { Alert, Button, Group, Text } from '@mantine/core';
import type { DnsPublishing } from '@panel247/contract/dns';
import { useTranslation } from 'react-i18next';
import { notifyCall } from '../../../lib/notify';
import { usePublishDnsZone } from '../api/publish-dns-zone';

/**
 * Says that the zone's latest changes are not all on its DNS server yet: being applied, or
 * failing (with why) and tried again by the panel; a user who may change the zone can try now.
 */
export function DnsPublishingAlert({
  serviceId,
  publishing,
  canWrite,
}: {
  serviceId: number;
  publishing: DnsPublishing | undefined;
  canWrite: boolean;
}) {
  const { t } = useTranslation();
  const publish = usePublishDnsZone(serviceId);
  if (!publishing) return null;
  const failing = publishing.state === 'failing';
  return (
    <Alert
      color={failing ? 'orange' : 'blue'}
      variant="light"
      role="status"
      data-testid="dns-publishing"
      data-state={publishing.state}
      title={failing ? t('dns.publishing.failing_title') : t('dns.publishing.pending_title')}
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">
          {failing ? t(`dns.publishing.reason_${publishing.reason ?? 'failed'}`) : t('dns.publishing.pending')}
        </Text>
        {failing && canWrite && (
          <Button
            size="xs"
            variant="light"
            loading={publish.isPending}
            onClick={() =>
              void notifyCall(
                () => publish.mutateAsync(),
                () => undefined,
              )
            }
            data-testid="dns-publishing-retry"
          >
            {t('dns.publishing.retry')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
