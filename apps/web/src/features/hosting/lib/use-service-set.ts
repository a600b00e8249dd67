import { useParams } from 'react-router';
import { usePermissionSet } from '../../../api/get-permission-set';

/** The route's service id (a positive integer, else null) and its permission set. */
export function useServiceSet() {
  const { id: raw } = useParams();
  const value = Number(raw);
  const id = Number.isSafeInteger(value) && value > 0 && String(value) === raw ? value : null;
  return { id, set: usePermissionSet(id) };
}
