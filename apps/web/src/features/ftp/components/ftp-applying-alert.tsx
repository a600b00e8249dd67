import { ftpMainQueryKey, useFtpApplying } from '../../../api/get-ftp-main';
import { ServiceApplyingAlert } from '../../../components/service-applying-alert';
import { useApplyFtpChanges } from '../api/apply-ftp-changes';

/** The service's latest FTP changes not all on its FTP server yet (see ServiceApplyingAlert). */
export function FtpApplyingAlert({ serviceId, canWrite }: { serviceId: number; canWrite: boolean }) {
  const applying = useFtpApplying(serviceId).data;
  const apply = useApplyFtpChanges(serviceId);
  return (
    <ServiceApplyingAlert
      area="ftp"
      serviceId={serviceId}
      applying={applying}
      queryKey={ftpMainQueryKey(serviceId)}
      words="ftp.applying"
      retry={canWrite ? apply : undefined}
      onJobs
    />
  );
}
