import { usePermissionSet } from '../../../api/get-permission-set';
import { useItemId } from '../../../components/item-gate';

/** The route's service id (a positive integer, else null) and its permission set. */
export function useServiceSet() {
  const id = useItemId();
  return { id, set: usePermissionSet(id) };
}
