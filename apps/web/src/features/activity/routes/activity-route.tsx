import { ActivityView } from '../components/activity-view';

/** `/admin/activity/`: the account's activity, as far as the user may see it. */
export default function ActivityRoute() {
  return <ActivityView />;
}
