import { isVisible } from '@panel247/contract/constants';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { NotFoundView } from '../../../components/not-found-view';
import { SitesView } from '../components/sites-view';
import { useServiceSet } from '../lib/use-service-set';

/**
 * `/admin/{id}/service/subdomain/`: the sites of a hosting service with `service_subdomains`
 * visible; otherwise (or for a missing service) the not-found view. Remounts on another id.
 */
export default function SitesRoute() {
  const { id, set } = useServiceSet();
  if (id === null) return <NotFoundView />;
  if (set.isPending) return <DelayedSpinner />;
  if (set.isError || !set.data?.hasService || !isVisible(set.data.permissions.service_subdomains)) {
    return <NotFoundView />;
  }
  return <SitesView key={id} set={set.data} />;
}
