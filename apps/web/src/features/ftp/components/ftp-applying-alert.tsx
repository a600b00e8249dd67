import { useTranslation } from 'react-i18next';
import { ftpMainQueryKey, useFtpApplying } from '../../../api/get-ftp-main';
import { PendingWorkAlert } from '../../../components/pending-work-alert';
import { useWorkRefresh } from '../../../lib/use-work-refresh';
import { useApplyFtpChanges } from '../api/apply-ftp-changes';

/**
 * The service's latest FTP changes not all on its FTP server yet (see PendingWorkAlert): a change
 * answered "being applied", and the realtime word that they moved on, read the state again.
 */
export function FtpApplyingAlert({ serviceId, canWrite }: { serviceId: number; canWrite: boolean }) {
  const { t } = useTranslation();
  const applying = useFtpApplying(serviceId).data;
  const apply = useApplyFtpChanges(serviceId);
  useWorkRefresh('ftp', serviceId, ftpMainQueryKey(serviceId), true);
  if (!applying) return null;
  const failing = applying.state === 'failing';
  return (
    <PendingWorkAlert
      state={applying.state}
      title={failing ? t('ftp.applying.failing_title') : t('ftp.applying.pending_title')}
      text={failing ? t(`ftp.applying.reason_${applying.reason ?? 'failed'}`) : t('ftp.applying.pending')}
      {...(canWrite ? { retry: { run: () => apply.mutateAsync(), running: apply.isPending } } : {})}
      testId="ftp-applying"
    />
  );
}
