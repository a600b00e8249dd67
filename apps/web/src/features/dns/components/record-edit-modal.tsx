import { Center, Loader } from '@mantine/core';
import type { DnsRecord } from '@panel247/contract/dns';
import { useEffect } from 'react';
import { AppModal } from '../../../components/app-modal';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useDnsRecord } from '../api/get-dns-record';
import { useSaveDnsRecord } from '../api/save-dns-record';
import { dnsFormValuesFromRecord, dnsPayload } from '../lib/dns-form';
import { fullName } from '../lib/dns-format';
import { DnsRecordForm } from './dns-record-form';

/** Edit: loads the record, splits SRV and CAA values into their parts; type and name stay fixed. */
export function RecordEditModal({
  record,
  onClose,
  serviceId,
  zoneName,
  canWrite,
}: {
  /** The row being edited (null: closed). */
  record: DnsRecord | null;
  onClose: () => void;
  serviceId: number;
  zoneName: string;
  canWrite: boolean;
}) {
  const { t } = useTranslation();
  const opened = record !== null;
  const allowed = useRightGuard(opened, canWrite, onClose);
  const loaded = useDnsRecord(serviceId, opened && allowed ? record.id : null);
  const save = useSaveDnsRecord(serviceId);

  useEffect(() => {
    if (!loaded.isError) return;
    notifyError(loaded.error);
    onClose();
  }, [loaded.isError, loaded.error, onClose]);

  const current = loaded.data;
  return (
    <AppModal
      opened={opened && allowed}
      onClose={onClose}
      title={record ? `${t('dns.edit_title')}: ${fullName(record)}` : t('dns.edit_title')}
      size="lg"
      data-testid="dns-edit-modal"
    >
      {current ? (
        <DnsRecordForm
          key={current.id}
          mode="edit"
          serviceId={serviceId}
          zoneName={zoneName}
          initialValues={dnsFormValuesFromRecord(current)}
          submitting={save.isPending}
          onCancel={onClose}
          onSubmit={async (values) => {
            const { value, ttl, priority } = dnsPayload(values);
            const result = await save.mutateAsync({ recordId: current.id, input: { value, ttl, priority } });
            notifySuccess(result.info);
            onClose();
          }}
        />
      ) : (
        <Center py="lg" role="status" aria-live="polite">
          <Loader role="status" aria-label={t('dns.loading_record')} />
        </Center>
      )}
    </AppModal>
  );
}
