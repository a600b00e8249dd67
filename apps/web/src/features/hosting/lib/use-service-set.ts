import { useParams } from 'react-router';
import { usePermissionSet } from '../../../api/get-permission-set';
import { parseId } from '../../../lib/resource-paths';

/** The route's service id (a positive integer, else null) and its permission set. */
export function useServiceSet() {
  const id = parseId(useParams().id);
  return { id, set: usePermissionSet(id) };
}
