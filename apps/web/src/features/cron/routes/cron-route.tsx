import { CRON_VIEW } from '../../../app/route-data';
import { ItemGate } from '../../../components/item-gate';
import { CronView } from '../components/cron-view';

/**
 * `/admin/{id}/service/cron/`: the scheduled tasks need a hosting service with `service_cron`
 * visible; otherwise (or for a missing service) the not-found view. The view remounts on another id.
 */
export default function CronRoute() {
  return <ItemGate {...CRON_VIEW.gate}>{(set) => <CronView key={set.id} set={set} />}</ItemGate>;
}
