import { isVisible } from '@panel247/contract/constants';
import { usePermissionSet } from '../../../api/get-permission-set';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { useItemId } from '../../../components/item-gate';
import { NotFoundView } from '../../../components/not-found-view';
import { DomainView } from '../components/domain-view';

/**
 * `/admin/{id}/domain/`: shown when the resource has a domain and `domain` is visible; otherwise
 * (or for a missing resource) the not-found view. The view remounts on another id.
 */
export default function DomainRoute() {
  const id = useItemId();
  const set = usePermissionSet(id);
  if (id === null) return <NotFoundView />;
  if (set.isPending) return <DelayedSpinner />;
  if (set.isError || !set.data?.hasDomain || !isVisible(set.data.permissions.domain)) return <NotFoundView />;
  return <DomainView key={id} id={id} set={set.data} />;
}
