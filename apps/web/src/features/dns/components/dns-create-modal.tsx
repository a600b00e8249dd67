import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
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
  const allowed = useRightGuard(opened, canWrite, onClose);
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
