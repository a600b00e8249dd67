import { ItemGate } from '../../../components/item-gate';
import { DatabasesView } from '../components/databases-view';

/**
 * `/admin/{id}/service/ddbb/`: the databases need a hosting service with `service_ddbb` visible;
 * otherwise (or for a missing service) the not-found view. The view remounts on another id.
 */
export default function DatabasesRoute() {
  return (
    <ItemGate requires={['service_ddbb']} flag="hasService">
      {(set) => <DatabasesView key={set.id} set={set} />}
    </ItemGate>
  );
}
