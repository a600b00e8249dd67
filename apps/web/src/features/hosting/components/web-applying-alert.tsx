import { isActionable, isVisible } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { HOSTING_API } from '@panel247/contract/routes';
import { ServiceApplyingAlert } from '../../../components/service-applying-alert';
import { useApplyNow } from '../../../lib/use-apply-now';
import { hostingQueryKey, hostingServiceQueryKey, useHostingService } from '../api/get-hosting-service';

/**
 * The service's latest web changes not all on its web server yet (see ServiceApplyingAlert), on
 * the overview and the sites. A change answered "being applied" (its answer carries a job), and
 * the realtime word that the service's changes moved on, bring the service's state in again.
 */
export function WebApplyingAlert({ set }: { set: PermissionSetData }) {
  const serviceId = set.id;
  const service = useHostingService(serviceId, isVisible(set.permissions.service));
  const apply = useApplyNow(HOSTING_API.applyWeb(serviceId), hostingServiceQueryKey(serviceId));
  return (
    <ServiceApplyingAlert
      area="web"
      serviceId={serviceId}
      applying={service.data?.applying}
      queryKey={hostingQueryKey(serviceId)}
      words="hosting.applying"
      retry={isActionable(set.permissions.service) ? apply : undefined}
      onJobs
    />
  );
}
