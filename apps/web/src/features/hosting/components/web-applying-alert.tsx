import { isActionable, isVisible } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { useTranslation } from 'react-i18next';
import { PendingWorkAlert } from '../../../components/pending-work-alert';
import { useWorkRefresh } from '../../../lib/use-work-refresh';
import { useApplyWebChanges } from '../api/apply-web-changes';
import { hostingQueryKey, useHostingService } from '../api/get-hosting-service';

/**
 * The service's latest web changes not all on its web server yet (see PendingWorkAlert), on the
 * views that change them. A change answered "being applied" (its answer carries a job), and the
 * realtime word that the service's changes moved on, bring the service's state in again.
 */
export function WebApplyingAlert({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const service = useHostingService(serviceId, isVisible(set.permissions.service));
  const apply = useApplyWebChanges(serviceId);
  useWorkRefresh('web', serviceId, hostingQueryKey(serviceId), true);
  const applying = service.data?.applying;
  if (!applying) return null;
  const failing = applying.state === 'failing';
  return (
    <PendingWorkAlert
      state={applying.state}
      title={failing ? t('hosting.applying.failing_title') : t('hosting.applying.pending_title')}
      text={failing ? t(`hosting.applying.reason_${applying.reason ?? 'failed'}`) : t('hosting.applying.pending')}
      {...(isActionable(set.permissions.service)
        ? { retry: { run: () => apply.mutateAsync(), running: apply.isPending } }
        : {})}
      testId="web-applying"
    />
  );
}
