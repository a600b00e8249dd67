import { STATS_VIEW } from '../../../app/route-data';
import { ItemGate } from '../../../components/item-gate';
import { StatsView } from '../components/stats-view';

/**
 * `/admin/{id}/service/stats/`: the site statistics need a hosting service with `service_stats`
 * visible; otherwise (or for a missing service) the not-found view. The view remounts on another id.
 */
export default function StatsRoute() {
  return <ItemGate {...STATS_VIEW.gate}>{(set) => <StatsView key={set.id} set={set} />}</ItemGate>;
}
