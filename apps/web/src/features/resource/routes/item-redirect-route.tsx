import { Navigate } from 'react-router';
import { ItemGate } from '../../../components/item-gate';
import { loginRedirectPath } from '../../../lib/resource-paths';

/** `/admin/{id}/`: the redirect check of the main item view, to its first allowed area. */
export default function ItemRedirectRoute() {
  return <ItemGate requires={[]}>{(set) => <Navigate to={loginRedirectPath(set.id, set)} replace />}</ItemGate>;
}
