import { isActionable } from '@panel247/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reloadPermissionSet } from '../../../api/get-permission-set';
import { AppModal } from '../../../components/app-modal';
import { notifyError, notifySuccess } from '../../../lib/notify';
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
  const queryClient = useQueryClient();
  const create = useCreateDnsRecord(serviceId);
  // Spec section 4: opening loads the service and its permissions afresh; without the DNS-zone
  // action the guard says 'main.no_permission' and the dialog closes.
  const [refusedOnLoad, setRefusedOnLoad] = useState(false);
  useEffect(() => {
    if (!opened) {
      setRefusedOnLoad(false);
      return;
    }
    let live = true;
    reloadPermissionSet(queryClient, serviceId).then(
      (fresh) => {
        if (live && !(fresh.hasService && isActionable(fresh.permissions.service_dnszone))) setRefusedOnLoad(true);
      },
      (error: unknown) => {
        if (!live) return;
        notifyError(error);
        onClose();
      },
    );
    return () => {
      live = false;
    };
  }, [opened, queryClient, serviceId, onClose]);
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
