import { isActionable } from '@panel247/contract/constants';
import { AppModal } from '../../../components/app-modal';
import { notifySuccess } from '../../../lib/notify';
import { usePermissionRecheck } from '../../../lib/use-permission-recheck';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateDnsRecord } from '../api/create-dns-record';
import { dnsPayload, initialDnsFormValues } from '../lib/dns-form';
import { DnsRecordForm } from './dns-record-form';

export function DnsCreateModal({
  opened,
  onClose,
  serviceId,
  zoneName,
  canWrite,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  zoneName: string;
  canWrite: boolean;
}) {
  const { t } = useTranslation();
  const create = useCreateDnsRecord(serviceId);
  // Spec section 4: opening loads the service and its permissions afresh; without the DNS-zone
  // action the guard says 'main.no_permission' and the dialog closes.
  const refusedOnLoad = usePermissionRecheck(
    opened,
    serviceId,
    (fresh) => fresh.hasService && isActionable(fresh.permissions.service_dnszone),
    onClose,
  );
  const allowed = useRightGuard(opened, canWrite && !refusedOnLoad, onClose);
  return (
    <AppModal
      opened={opened && allowed}
      onClose={onClose}
      title={t('dns.create_title')}
      size="lg"
      data-testid="dns-create-modal"
    >
      <DnsRecordForm
        mode="create"
        serviceId={serviceId}
        zoneName={zoneName}
        initialValues={initialDnsFormValues()}
        submitting={create.isPending}
        onCancel={onClose}
        onSubmit={async (values) => {
          const { info } = await create.mutateAsync(dnsPayload(values));
          notifySuccess(info);
          onClose();
        }}
      />
    </AppModal>
  );
}
