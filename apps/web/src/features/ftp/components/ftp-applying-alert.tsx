import { FTP_API } from '@panel247/contract/routes';
import { ftpMainQueryKey, useFtpApplying } from '../../../api/get-ftp-main';
import { ServiceApplyingAlert } from '../../../components/service-applying-alert';
import { useApplyNow } from '../../../lib/use-apply-now';

/** The service's latest FTP changes not all on its FTP server yet (see ServiceApplyingAlert). */
export function FtpApplyingAlert({ serviceId, canWrite }: { serviceId: number; canWrite: boolean }) {
  const applying = useFtpApplying(serviceId).data;
  const apply = useApplyNow(FTP_API.apply(serviceId), ftpMainQueryKey(serviceId));
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
