import type { DnsPublishing } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { PendingWorkAlert } from '../../../components/pending-work-alert';
import { useApplyNow } from '../../../lib/use-apply-now';
import { useTranslation } from '../../../lib/use-translation';
import { useWorkRefresh } from '../../../lib/use-work-refresh';
import { dnsQueryKey } from '../api/list-dns-records';

/** The zone's latest changes not all on its DNS server yet (see PendingWorkAlert). */
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
  const publish = useApplyNow(DNS_API.publish(serviceId), dnsQueryKey(serviceId));
  // the realtime word that the zone's changes moved on: the list (and its state) is read again
  useWorkRefresh('dns', serviceId, dnsQueryKey(serviceId));
  if (!publishing) return null;
  const failing = publishing.state === 'failing';
  return (
    <PendingWorkAlert
      state={publishing.state}
      title={failing ? t('dns.publishing.failing_title') : t('dns.publishing.pending_title')}
      text={failing ? t(`dns.publishing.reason_${publishing.reason ?? 'failed'}`) : t('dns.publishing.pending')}
      {...(canWrite ? { retry: { run: () => publish.mutateAsync(), running: publish.isPending } } : {})}
      testId="dns-publishing"
    />
  );
}
