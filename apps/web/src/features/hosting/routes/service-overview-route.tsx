import { isVisible } from '@panel247/contract/constants';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { NotFoundView } from '../../../components/not-found-view';
import { ServiceOverviewView } from '../components/service-overview-view';
import { useServiceSet } from '../lib/use-service-set';

/**
 * `/admin/{id}/service/`: a hosting service whose overview (`service`), parking or redirections
 * the user sees; otherwise (or for a missing service) the not-found view. Remounts on another id.
 */
export default function ServiceOverviewRoute() {
  const { id, set } = useServiceSet();
  if (id === null) return <NotFoundView />;
  if (set.isPending) return <DelayedSpinner />;
  const data = set.data;
  if (set.isError || !data?.hasService) return <NotFoundView />;
  const { service, service_parking, service_redirects } = data.permissions;
  if (![service, service_parking, service_redirects].some(isVisible)) return <NotFoundView />;
  return <ServiceOverviewView key={id} set={data} />;
}
