import { ManagerGate } from '../components/manager-gate';
import { UsersView } from '../components/users-view';

/** `/admin/users/`: the account's users, for those who may manage them. */
export default function UsersRoute() {
  return (
    <ManagerGate>
      <UsersView />
    </ManagerGate>
  );
}
