import { ITEM_ACTIVITY_VIEW } from '../../../app/route-data';
import { ItemGate } from '../../../components/item-gate';
import { ActivityView } from '../components/activity-view';

/**
 * `/admin/{id}/activity/`: one item's activity, for anyone who can see the item at all (the server
 * filters the entries to the areas the user may see); a missing item is the not-found view.
 */
export default function ItemActivityRoute() {
  return <ItemGate {...ITEM_ACTIVITY_VIEW.gate}>{(set) => <ActivityView key={set.id} item={set} />}</ItemGate>;
}
