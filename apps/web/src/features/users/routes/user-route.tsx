import { useParams } from 'react-router';
import { NotFoundView } from '../../../components/not-found-view';
import { parseId } from '../../../lib/resource-paths';
import { ManagerGate } from '../components/manager-gate';
import { UserDetailView } from '../components/user-detail-view';

/** `/admin/users/{id}/`: one user's access and permissions; a bad, unknown or foreign id is not found. */
export default function UserRoute() {
  const id = parseId(useParams().id);
  return <ManagerGate>{id === null ? <NotFoundView /> : <UserDetailView key={id} id={id} />}</ManagerGate>;
}
