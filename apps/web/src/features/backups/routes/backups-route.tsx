import { ItemGate } from '../../../components/item-gate';
import { BackupsView } from '../components/backups-view';

/**
 * `/admin/{id}/service/backups/`: the snapshots need a hosting service with `service_backups`
 * visible; otherwise (or for a missing service) the not-found view. The view remounts on another id.
 */
export default function BackupsRoute() {
  return (
    <ItemGate requires={['service_backups']} flag="hasService">
      {(set) => <BackupsView key={set.id} set={set} />}
    </ItemGate>
  );
}
